import { NumberInput } from "@mantine/core";
import { ApiError } from "../../api/errors";
import { fieldErrors } from "../../lib/field-errors";

/**
 * A write's errors by the field they concern: a 422's details name theirs; a 409 overlap is about the
 * dates, so it is shown on the start date; anything else is for the form as a whole.
 */
export function assignmentErrors(error: unknown): { fields: Record<string, string>; form?: ApiError | Error } {
  if (!error) return { fields: {} };
  const fields = fieldErrors(error);
  if (error instanceof ApiError && error.status === 409) return { fields: { effective_from: error.message } };
  if (Object.keys(fields).length > 0) return { fields };
  return { fields, form: error instanceof Error ? error : new Error(String(error)) };
}

/** A create or edit form's values as the API takes them: empty dates and quota are none (null). */
export function assignmentBody(values: {
  user_id?: string | null;
  effective_from: string;
  effective_to: string;
  quota_override: number | string;
}) {
  return {
    user_id: values.user_id ?? "",
    effective_from: values.effective_from,
    effective_to: values.effective_to === "" ? null : values.effective_to,
    quota_override: values.quota_override === "" ? null : Number(values.quota_override),
  };
}

/** A quota of the person's own for the assignment's span; empty: the plan's. */
export function QuotaOverride(props: {
  currency: string;
  value: number | string;
  onChange: (value: number | string) => void;
  error: string | undefined;
}) {
  const { currency, ...field } = props;
  return (
    <NumberInput
      label="Quota override"
      description={`Empty: the plan's quota (${currency})`}
      decimalScale={2}
      min={0}
      thousandSeparator=","
      {...field}
    />
  );
}
