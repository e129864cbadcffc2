import { type Ctx, requireOwner, withTransaction } from "../context.js";
import type { ROLES } from "../enums.js";
import type { NotificationSettings } from "../notifications/index.js";
import { CreateUserBody, createUser, ListUsersQuery, listUsers, type User, updateUser } from "../users/index.js";
import { type CreatedInvitation, createInvitation } from "./invitations.js";

export interface InviteByEmail {
  email: string;
  name?: string | undefined;
  role?: (typeof ROLES)[number] | undefined;
  /** Where the console is served (API.md §20 (d)): the running server's origin, else computed by the CLI. */
  origin: string;
}

export interface InvitedByEmail {
  user: User;
  /** True when the user did not exist and was created by this command. */
  created: boolean;
  invitation: CreatedInvitation;
  /** True when email is configured: the invitation email is queued, and the worker sends it. */
  emailQueued: boolean;
}

/**
 * `cts users invite EMAIL [--name NAME] [--role ROLE]`: the owner's way in for the first admin. Finds
 * the user by email (case-insensitively) or creates them (name: the email's local part unless --name;
 * role: rep unless --role); an existing user gets the --name and --role given (through the users
 * service, so a role change does what a PATCH would), and keeps theirs otherwise. Then issues an
 * invitation as `POST /users/{id}/invitations` does (an inactive user → 409), queueing its email when
 * `mail` is set (CTS_SMTP_URL). One transaction.
 */
export async function inviteByEmail(
  ctx: Ctx,
  input: InviteByEmail,
  mail?: NotificationSettings,
): Promise<InvitedByEmail> {
  requireOwner(ctx, "Inviting by email");
  return withTransaction(ctx, async (tx) => {
    const inTx: Ctx = { ...ctx, db: tx };
    const [existing] = (await listUsers(inTx, ListUsersQuery.parse({ email: input.email, per_page: "1" }))).data;
    let user: User;
    if (existing) {
      const changes = {
        ...(input.name !== undefined && input.name !== existing.name ? { name: input.name } : {}),
        ...(input.role !== undefined && input.role !== existing.role ? { role: input.role } : {}),
      };
      user = Object.keys(changes).length > 0 ? await updateUser(inTx, existing.id, changes) : existing;
    } else {
      const localPart = input.email.slice(0, input.email.lastIndexOf("@"));
      const body = CreateUserBody.parse({
        email: input.email,
        name: input.name ?? localPart,
        role: input.role ?? "rep",
      });
      user = await createUser(inTx, body);
    }
    const invitation = await createInvitation(inTx, user.id, input.origin, mail);
    return { user, created: !existing, invitation, emailQueued: mail !== undefined };
  });
}
