// A day's rates as an admin pastes them (or a .csv holds them): `code,rate` lines, one per line, an
// optional `code,rate` header. Rates stay the strings typed: the API keeps them exact, so the console
// never turns one into a number. What the line cannot be is said here, by line number, before
// sending; whether a rate is in range (> 0, ≤ 10 decimals) is the API's 422 to say.

export interface LineProblem {
  line: number;
  message: string;
}

export interface ParsedRates {
  rates: Record<string, string>;
  problems: LineProblem[];
}

const CODE = /^[A-Z]{3}$/;
const DECIMAL = /^\d+(\.\d+)?$/;
const HEADER = /^code\s*,\s*rate$/i;

export function parseRates(text: string): ParsedRates {
  const rates: Record<string, string> = {};
  const problems: LineProblem[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  let seenContent = false;
  lines.forEach((raw, index) => {
    const line = index + 1;
    const content = raw.trim();
    if (content === "") return;
    const first = !seenContent;
    seenContent = true;
    if (first && HEADER.test(content)) return;
    const fields = content.split(",").map((field) => field.trim());
    if (fields.length !== 2) {
      problems.push({ line, message: `Line ${line}: write a code and a rate, such as "EUR,0.92".` });
      return;
    }
    const [typedCode, rate] = fields as [string, string];
    const code = typedCode.toUpperCase();
    if (!CODE.test(code)) {
      problems.push({ line, message: `Line ${line}: "${typedCode}" is not a 3-letter currency code.` });
    } else if (!DECIMAL.test(rate)) {
      problems.push({ line, message: `Line ${line}: "${rate}" is not a decimal rate, such as 0.92.` });
    } else if (Object.hasOwn(rates, code)) {
      problems.push({ line, message: `Line ${line}: ${code} is already given on an earlier line.` });
    } else {
      rates[code] = rate;
    }
  });
  if (problems.length === 0 && Object.keys(rates).length === 0) {
    problems.push({ line: 0, message: 'Give at least one line "code,rate", such as "EUR,0.92".' });
  }
  return { rates, problems };
}
