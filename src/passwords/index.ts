export { hashPassword, verifications, verifyPassword } from "./hash.js";
