import type { Command } from "commander";
import type { InvitedByEmail } from "../auth/index.js";
import { loadConfig } from "../config.js";
import { ROLES } from "../enums.js";
import { UsageError } from "./errors.js";
import { runOwner } from "./owner.js";

/** Where people open the console: CTS_PUBLIC_URL, else http://CTS_HOST:CTS_PORT. */
export function consoleOrigin(config: { publicUrl: string | undefined; host: string; port: number }): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, "");
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

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
        "cancels the user's older ones. The link's origin is CTS_PUBLIC_URL, else http://CTS_HOST:CTS_PORT. " +
        "How the first admin gets in: cts users invite you@example.com --role admin",
    )
    .option("--name <name>", "the person's name (for a new user, default: the email's local part)")
    .option("--role <role>", `${ROLES.join(" | ")} (for a new user, default: rep)`)
    .option("--json", "print {user_id,email,name,role,created,invitation_id,url,expires_at} on one line")
    .action(async (email: string, o: { name?: string; role?: string; json?: boolean }) => {
      if (o.role !== undefined && !(ROLES as readonly string[]).includes(o.role)) {
        throw new UsageError(`--role must be one of ${ROLES.join(", ")}, not ${JSON.stringify(o.role)}`);
      }
      const origin = consoleOrigin(loadConfig());
      const args = { email, origin, ...(o.name !== undefined && { name: o.name }), ...(o.role && { role: o.role }) };
      const { user, created, invitation } = (await runOwner("users.invite", args)) as InvitedByEmail;
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
        };
        process.stdout.write(`${JSON.stringify(summary)}\n`);
        return;
      }
      const who = `${user.id} ${user.email} (${user.role}${created ? ", new user" : ""})`;
      process.stdout.write(
        `${invitation.url}\n\nInvited ${who}. The link works once, until ${invitation.expires_at}; it is shown only now.\n`,
      );
    });
}
