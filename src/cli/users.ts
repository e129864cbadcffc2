import type { Command } from "commander";
import type { InvitedByEmail } from "../auth/index.js";
import { ROLES } from "../enums.js";
import { UsageError } from "./errors.js";
import { linkOrigin, runOwner } from "./owner.js";

export function usersCommand(program: Command): void {
  const users = program
    .command("users")
    .description("Manage people as the owner (works with or without a running server)");

  users
    .command("invite <email>")
    .description(
      "Invite a person to the web console and print their one-time sign-up link (valid 72 hours). Creates the " +
        "user if no user has this email (name: the part before the @ unless --name; role: rep unless --role); " +
        "an existing user keeps their name and role unless --name or --role says otherwise. A new invitation " +
        "cancels the user's older ones. The link's origin is the running server's: CTS_PUBLIC_URL, else the " +
        "address it listens on (https with TLS; 0.0.0.0 and :: written localhost); with no server running, " +
        "the same from this configuration. With email configured (CTS_SMTP_URL), the invitation is also emailed " +
        "as POST /users/{id}/invitations does: queued now, sent by the server's worker. " +
        "How the first admin gets in: cts users invite you@example.com --role admin",
    )
    .option("--name <name>", "the person's name (for a new user, default: the email's local part)")
    .option("--role <role>", `${ROLES.join(" | ")} (for a new user, default: rep)`)
    .option("--json", "print {user_id,email,name,role,created,invitation_id,url,expires_at,email_queued} on one line")
    .action(async (email: string, o: { name?: string; role?: string; json?: boolean }) => {
      if (o.role !== undefined && !(ROLES as readonly string[]).includes(o.role)) {
        throw new UsageError(`--role must be one of ${ROLES.join(", ")}, not ${JSON.stringify(o.role)}`);
      }
      const origin = await linkOrigin();
      const args = { email, origin, ...(o.name !== undefined && { name: o.name }), ...(o.role && { role: o.role }) };
      const { user, created, invitation, emailQueued } = (await runOwner("users.invite", args)) as InvitedByEmail;
      if (o.json) {
        const summary = {
          user_id: user.id,
          email: user.email,
          name: user.name,
          role: user.role,
          created,
          invitation_id: invitation.id,
          url: invitation.url,
          expires_at: invitation.expires_at,
          email_queued: emailQueued,
        };
        process.stdout.write(`${JSON.stringify(summary)}\n`);
        return;
      }
      const who = `${user.id} ${user.email} (${user.role}${created ? ", new user" : ""})`;
      const emailed = emailQueued
        ? `The invitation email to ${user.email} is queued: the server's worker (cts serve or cts worker) sends it.\n`
        : "";
      process.stdout.write(
        `${invitation.url}\n\nInvited ${who}. The link works once, until ${invitation.expires_at}; it is shown only now.\n${emailed}`,
      );
    });
}
