import { auditFailedSignIn } from "../audit/record.js";
import type { Ctx } from "../context.js";
import type { User } from "../users/index.js";

/** Why an OpenID Connect sign-in was refused; recorded as the `reason` of its audit row. */
export type RefusalReason =
  | "bad_state"
  | "provider_refused"
  | "provider_error"
  | "email_unverified"
  | "unknown_user"
  | "user_inactive";

const PAGES: Record<RefusalReason, { status: 401 | 403; title: string; sentence: (detail: string) => string }> = {
  bad_state: {
    status: 401,
    title: "Sign-in expired",
    sentence: () => "This sign-in expired, was already used or was tampered with. Start again from the sign-in page.",
  },
  provider_refused: {
    status: 401,
    title: "Sign-in refused by the provider",
    sentence: (error) => `Your sign-in provider refused the sign-in (${error}).`,
  },
  provider_error: {
    status: 401,
    title: "Sign-in failed",
    sentence: () => "The sign-in provider's answer could not be verified, or it could not be reached. Try again.",
  },
  email_unverified: {
    status: 403,
    title: "Email not verified",
    sentence: (email) => `Your sign-in provider has not verified your email address ${email}.`,
  },
  unknown_user: {
    status: 403,
    title: "No account",
    sentence: (email) => `No one with the email address ${email} may sign in here. Ask an administrator to add you.`,
  },
  user_inactive: {
    status: 403,
    title: "Account deactivated",
    sentence: (email) => `The account with the email address ${email} is deactivated. Ask an administrator.`,
  },
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The page a refused person sees: one short sentence, no stack, every value from outside escaped. */
export function refusalPage(reason: RefusalReason, detail: string): { status: number; html: string } {
  const page = PAGES[reason];
  const sentence = escapeHtml(page.sentence(detail.slice(0, 320)));
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${page.title}</title></head>
<body><h1>${page.title}</h1><p>${sentence}</p><p><a href="/">Back to the start page</a></p></body></html>
`;
  return { status: page.status, html };
}

/**
 * The `session.login_failed` audit row of a refused sign-in, as `POST /auth/login` writes it: by an
 * anonymous actor (`{"type":"user","id":null,"name":"anonymous"}`: nobody was signed in), about the user
 * the provider's email belongs to (`user`, usr_…), else `login` with the lowercased email as its id (or
 * `oidc` when the provider named no one). `after` holds the method, the reason and the email if known.
 */
export async function auditRefusal(
  ctx: Ctx,
  reason: RefusalReason,
  found: { user?: User | undefined; email?: string | undefined },
): Promise<void> {
  const { user, email } = found;
  await auditFailedSignIn(ctx.db, ctx, {
    resource: user ? "user" : "login",
    resourceId: user?.id ?? email?.toLowerCase() ?? "oidc",
    after: { method: "oidc", reason, ...(email !== undefined && { email }) },
  });
}
