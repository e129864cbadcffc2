// People the auth specs create for themselves (never a seeded one: they change passwords and end sessions).
import { asAdmin, type SeededUser, state } from "./api.js";

let count = 0;

/** A new rep under the lead with a pending invitation: the user and the invitation's one-time url. */
export async function invitedRep(name: string): Promise<{ user: SeededUser; url: string }> {
  const { users } = state();
  const email = `${name.split(" ")[0]!.toLowerCase()}.${Date.now()}.${++count}@e2e.example.com`;
  const user = await asAdmin("POST", "/users", { name, email, role: "rep", manager_id: users.lead.id });
  const invitation = await asAdmin<{ url: string }>("POST", `/users/${user.id}/invitations`);
  return {
    user: { id: user.id, name: user.name, email: user.email, role: user.role, password: "" },
    url: invitation.url,
  };
}

/** A new rep who accepted an invitation through the API with `password`. */
export async function repWithPassword(name: string, password: string): Promise<SeededUser> {
  const { user, url } = await invitedRep(name);
  const accepted = await postPublic("/auth/invitations/accept", { token: new URL(url).hash.slice(1), password });
  if (accepted.status !== 200) throw new Error(`accept → ${accepted.status}: ${JSON.stringify(accepted.body)}`);
  return { ...user, password };
}

/** A POST to a public route (sign-in, invitations), as the browser would send it: answers of any status. */
export async function postPublic(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const { url } = state();
  const res = await fetch(`${url}/api/v1${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
