export { clearedSessionCookie, hasSessionCookie, SESSION_COOKIE, sessionCookie, sessionTokenOf } from "./cookie.js";
export {
  type ActiveSession,
  DEFAULT_SESSION_SETTINGS,
  type EndReason,
  endSession,
  endSessionByToken,
  endSessionsOf,
  resumeSession,
  type SessionSettings,
  type SignedIn,
  startSession,
} from "./service.js";
export { newToken, sha256Hex } from "./tokens.js";
