import { Alert, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useCreatePlan } from "../../data/comp-plans/mutations";
import { fieldErrors } from "../../lib/field-errors";
import { ActionError } from "../../ui/ActionError";
import { PlanFields } from "./PlanFields";
import { planErrorsInWords, planProblems } from "./plan-problems";
import { createBody, type PlanValues } from "./plan-values";

/**
 * A new plan, blank or a copy of another: saved as a draft (nothing earns under it yet), then its page
 * opens, where it is tried on a sample deal and published.
 */
export function PlanBuilder({ start, title, onClose }: { start: PlanValues; title: string; onClose: () => void }) {
  const create = useCreatePlan();
  const navigate = useNavigate();
  const [values, setValues] = useState(start);
  // Once saving was tried: what the form finds wrong as it is now, else the API's 422 of the last send,
  // in words either way.
  const [tries, setTries] = useState(0);
  const problems = tries > 0 ? planProblems(values) : {};
  const refused = fieldErrors(create.error);
  const errors = Object.keys(problems).length > 0 ? problems : planErrorsInWords(refused, values);
  const count = Object.keys(errors).length;
  const form = useRef<HTMLFormElement>(null);

  // After a try that found something: the first field marked is where the person goes next.
  useEffect(() => {
    if (tries > 0) form.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [tries]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTries((n) => n + 1);
    if (Object.keys(planProblems(values)).length > 0) return;
    create.mutate(createBody({ ...values, status: "draft" }), {
      onSuccess: (plan) => void navigate({ to: "/plans/$planId", params: { planId: plan.id } }),
    });
  };

  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ "aria-label": "Close" }}
      closeOnClickOutside={false}
      title={title}
      size="56rem"
    >
      <form ref={form} onSubmit={submit} noValidate aria-label="Plan builder">
        <PlanFields
          values={values}
          onChange={setValues}
          errors={errors}
          actions={
            <Stack gap="sm">
              {count > 0 && (
                <Alert color="red" role="alert" data-testid="plan-problems">
                  {count === 1 ? "One field needs" : `${count} fields need`} a change before the plan can be saved: they
                  are marked in red above.
                </Alert>
              )}
              {create.error && Object.keys(refused).length === 0 && <ActionError error={create.error} />}
              <Group justify="space-between" wrap="wrap">
                <Text size="sm" c="dimmed">
                  Saved as a draft: nobody earns under it until you publish it.
                </Text>
                <Group gap="sm">
                  <Button variant="default" onClick={onClose}>
                    Cancel
                  </Button>
                  <Button type="submit" loading={create.isPending}>
                    Save as draft
                  </Button>
                </Group>
              </Group>
            </Stack>
          }
        />
      </form>
    </Modal>
  );
}
