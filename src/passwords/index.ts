export { hashPassword, verifications, verifyPassword } from "./hash.js";
export {
  checkPassword,
  commonPasswords,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordProblems,
} from "./rules.js";
export { estimateStrength, MIN_STRENGTH, type PasswordOwner, userInputs } from "./strength.js";
