import { Alert, Button, FileInput, Group, List, Stack, Textarea, TextInput, Title } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { usePutRates } from "../../data/exchange-rates/mutations";
import { fieldErrors } from "../../lib/field-errors";
import { today } from "../../lib/periods";
import { ActionError } from "../../ui/ActionError";
import { parseRates } from "./rates-text";

/** The API's 422 details in the form's words: `rates.EUR` names the code, `base` the base field. */
function detailsInWords(details: Record<string, string>): string[] {
  return Object.entries(details).map(([param, message]) => {
    const code = /^rates\.([^.]+)$/.exec(param)?.[1];
    if (code) return `${code}: ${message}`;
    if (param === "base") return `Base: ${message}`;
    if (param === "date") return `Date: ${message}`;
    if (param === "rates") return `Rates: ${message}`;
    return `${param}: ${message}`;
  });
}

/** Enter a day's rates: pasted or uploaded `code,rate` lines, checked line by line, then PUT whole. */
export function RatesForm() {
  const [date, setDate] = useState(today());
  const [base, setBase] = useState("USD");
  const [text, setText] = useState("");
  const [lineProblems, setLineProblems] = useState<string[]>([]);
  const [saved, setSaved] = useState<string | null>(null);
  const saving = usePutRates();
  const details = detailsInWords(fieldErrors(saving.error));

  const upload = async (file: File | null) => {
    if (file) setText(await file.text());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    saving.reset();
    const parsed = parseRates(text);
    setLineProblems(parsed.problems.map((p) => p.message));
    if (parsed.problems.length > 0) return;
    const code = base.trim().toUpperCase();
    saving.mutate(
      { date, body: { base: code, rates: parsed.rates } },
      { onSuccess: (set) => setSaved(`Saved the ${set.base} rates of ${set.date}.`) },
    );
  };

  return (
    <form onSubmit={submit} aria-labelledby="rates-form-title" noValidate>
      <Stack gap="sm" maw={560}>
        <Title order={2} size="h4" id="rates-form-title">
          Enter a day's rates
        </Title>
        <Group grow align="flex-start">
          <TextInput label="Date" type="date" required value={date} onChange={(e) => setDate(e.currentTarget.value)} />
          <TextInput
            label="Base"
            description="1 unit of it is what each rate prices"
            required
            maxLength={3}
            value={base}
            onChange={(e) => setBase(e.currentTarget.value)}
          />
        </Group>
        <Textarea
          label="Rates"
          description='One "code,rate" per line, such as EUR,0.92; a "code,rate" header line may come first.'
          required
          autosize
          minRows={4}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          styles={{ input: { fontFamily: "monospace" } }}
        />
        <FileInput
          label="Or upload a .csv file"
          accept=".csv,text/csv"
          clearable
          clearButtonProps={{ "aria-label": "Clear the file" }}
          onChange={(f) => void upload(f)}
        />
        {lineProblems.length > 0 && (
          <Alert color="red" role="alert" title="Some lines cannot be read; nothing was sent">
            <List size="sm">
              {lineProblems.map((message) => (
                <List.Item key={message}>{message}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {details.length > 0 ? (
          <Alert color="red" role="alert" title="The rates were not saved">
            <List size="sm" data-testid="rates-problems">
              {details.map((message) => (
                <List.Item key={message}>{message}</List.Item>
              ))}
            </List>
          </Alert>
        ) : (
          <ActionError error={saving.error} />
        )}
        {saved && (
          <Alert color="green" role="status">
            {saved}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={saving.isPending}>
            Save rates
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
