import { List, Text } from "@mantine/core";
import { containsEmail, PASSWORD_MAX, PASSWORD_MIN, passwordLength } from "./passwordRules";
import { MIN_STRENGTH, usePasswordStrength } from "./strength";

type Verdict = "met" | "unmet" | "server" | "pending";

const MARK: Record<Verdict, { sign: string; color: string; said: string }> = {
  met: { sign: "✓", color: "teal.7", said: "met" },
  unmet: { sign: "✗", color: "red.7", said: "not met yet" },
  server: { sign: "•", color: "dimmed", said: "checked when you save" },
  pending: { sign: "•", color: "dimmed", said: "judged as you type" },
};

function Rule({ verdict, children, hint }: { verdict: Verdict; children: string; hint?: string | undefined }) {
  const mark = MARK[verdict];
  return (
    <List.Item
      icon={
        <Text span c={mark.color} fw={700} aria-hidden="true" display="inline-block" w="1em" ta="center">
          {mark.sign}
        </Text>
      }
    >
      <Text span size="sm">
        {children}
      </Text>
      <Text span size="sm" c="dimmed">
        {" "}
        ({mark.said})
      </Text>
      {hint && (
        <Text size="sm" c="red.7">
          {hint}
        </Text>
      )}
    </List.Item>
  );
}

/**
 * The password rules of API.md §11, judged as the person types where the browser can (length, the
 * email when the page knows it, and the strength estimate of §20 (c) with its hint); the
 * common-password list is the server's, so that rule says when.
 */
export function PasswordRules({ password, email, name }: { password: string; email?: string; name?: string }) {
  const length = passwordLength(password);
  const typed = password.length > 0;
  const strength = usePasswordStrength(password, email ? { email, name } : null);
  const lengthVerdict: Verdict = length >= PASSWORD_MIN && length <= PASSWORD_MAX ? "met" : "unmet";
  const emailVerdict: Verdict = email ? (typed && !containsEmail(password, email) ? "met" : "unmet") : "server";
  const strengthVerdict: Verdict = !strength ? "pending" : strength.score >= MIN_STRENGTH ? "met" : "unmet";
  const strengthRule = strength
    ? `be hard to guess (strength ${strength.score} of 4, ${MIN_STRENGTH} needed)`
    : `be hard to guess (strength ${MIN_STRENGTH} of 4 or more)`;
  return (
    <div aria-live="polite">
      <Text size="sm" fw={500} mb={4}>
        Your password must:
      </Text>
      <List spacing={2} size="sm" aria-label="Password rules">
        <Rule verdict={lengthVerdict}>{`have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters (now ${length})`}</Rule>
        <Rule verdict={emailVerdict}>not contain your email address</Rule>
        <Rule verdict="server">not be a commonly used password</Rule>
        <Rule verdict={strengthVerdict} hint={strength?.hint}>
          {strengthRule}
        </Rule>
      </List>
    </div>
  );
}
