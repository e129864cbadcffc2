export { clearedSessionCookie, hasSessionCookie, SESSION_COOKIE, sessionCookie, sessionTokenOf } from "./cookie.js";
export { type EndReason, endSession, endSessionByToken, endSessionsOf } from "./end.js";
export { type ActiveSession, resumeSession } from "./resume.js";
export { DEFAULT_SESSION_SETTINGS, type SessionSettings } from "./settings.js";
export { type SignedIn, startSession } from "./start.js";
export { newToken, sha256Hex } from "./tokens.js";
