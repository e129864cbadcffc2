// Signing in (API.md §11) as other folders see it: the /auth routes and the one way a session starts.
export type { AnswerFloor } from "./answer-floor.js";
export {
  AcceptInvitationBody,
  acceptInvitation,
  CreatedInvitation,
  createInvitation,
  INVITATION_TTL_HOURS,
} from "./invitations.js";
export { type InviteByEmail, type InvitedByEmail, inviteByEmail } from "./invitations-owner.js";
export type { OidcDeps, OidcSettings } from "./oidc-settings.js";
export { ChangePasswordBody, changePassword } from "./password-change.js";
export { type AuthSettings, authRoutes } from "./routes/index.js";
export { SessionBody, type SignInMethod, signIn } from "./sign-in.js";
