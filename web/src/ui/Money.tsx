import { moneyToCent } from "../lib/format";

/**
 * An amount to the cent, as every page shows money; when the API's exact value has more places (an
 * explanation's slice, attainment before a deal) it is the tooltip, on hover: "$8,293.91805".
 */
export function Money({ amount, currency }: { amount: string | number; currency: string }) {
  const { text, exact } = moneyToCent(amount, currency);
  if (!exact) return <>{text}</>;
  return (
    <span title={exact} style={{ textDecoration: "underline dotted", textUnderlineOffset: 3 }}>
      {text}
    </span>
  );
}
