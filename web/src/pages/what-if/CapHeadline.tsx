import { Alert, Stack, Text } from "@mantine/core";
import type { Schemas } from "../../api/types";
import { money } from "../../lib/format";
import { Money } from "../../ui/Money";

type PreviewLine = Schemas["CommissionPreview"]["lines"][number];
type PlanLine = Extract<PreviewLine, { kind: "plan" }>;

/** A plan line its plan's cap cut (the explanation's cap block applied: "… capped at …"). */
const capped = (line: PreviewLine): line is PlanLine => line.kind === "plan" && line.explanation.cap?.applied === true;

/**
 * The preview's headline when a plan's cap cut a line: the cap is reached and the deal earns $0 under
 * it (or only what was left of the cap), said above the numbers rather than only in the explanation.
 */
export function CapHeadline({
  lines,
  currency,
  who,
}: {
  lines: PreviewLine[];
  currency: string;
  /** "You" for the person's own line, else the credited person's name. */
  who: (userId: string) => string;
}) {
  const cut = lines.filter(capped);
  if (cut.length === 0) return null;
  return (
    <Stack gap="xs">
      {cut.map((line) => {
        const cap = line.explanation.cap!;
        const earns = money(line.amount, currency);
        const person = who(line.user_id);
        const verb = person === "You" ? "earn" : "earns";
        return (
          <Alert
            key={`${line.user_id}-${line.plan_id}`}
            color="orange"
            // Orange text on its tint is 3.9:1 (axe: serious); the title keeps the text colour.
            styles={{ title: { color: "var(--mantine-color-text)" } }}
            title={
              line.amount === 0
                ? `Cap reached for ${line.period}: ${person} ${verb} ${earns} on this deal`
                : `Cap reached for ${line.period}: ${person} ${verb} only ${earns} on this deal`
            }
            data-testid="cap-headline"
            data-user-id={line.user_id}
          >
            <Text size="sm">
              The plan pays at most <Money amount={cap.limit} currency={currency} /> a period, and{" "}
              <Money amount={cap.before} currency={currency} /> of it was earned before this deal
              {line.amount === 0 ? ": further deals earn nothing more this period." : "."}
            </Text>
          </Alert>
        );
      })}
    </Stack>
  );
}
