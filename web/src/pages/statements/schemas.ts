import { searchSchema, text } from "../../lib/search";

/** /statements/$period: whose statement (absent: the signed-in person's). */
export const statementSearch = searchSchema({ user: text() });
