import { Alert, Button, Card, Group, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import { payoutRunExport } from "../../data/payout-runs/exports";
import type { PayoutRunDetail } from "../../data/payout-runs/queries";
import { saveFile } from "../../lib/download";

type Format = "generic" | "adp" | "gusto";

/** A finalized run's files for payroll: the generic CSV, ADP Workforce Now paydata, Gusto (API.md §13). */
export function RunExports({ run }: { run: PayoutRunDetail }) {
  const currencies = run.totals.map((t) => t.currency);
  const [currency, setCurrency] = useState<string | null>(currencies[0] ?? null);
  const [coCode, setCoCode] = useState("");
  const [batchId, setBatchId] = useState("");
  const [busy, setBusy] = useState<Format | null>(null);
  const [error, setError] = useState<string | null>(null);

  const download = async (format: Format) => {
    setBusy(format);
    setError(null);
    try {
      const oneCurrency = format !== "generic" && currency ? { currency } : {};
      const adp = format === "adp" ? { co_code: coCode.trim(), batch_id: batchId.trim() } : {};
      const file = await payoutRunExport(run.id, { format, ...oneCurrency, ...adp });
      saveFile(file.blob, file.name);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card withBorder data-testid="run-exports">
      <Stack gap="sm">
        <Title order={2} size="h3">
          Files for payroll
        </Title>
        <Group gap="sm" align="flex-end">
          <Button variant="default" loading={busy === "generic"} onClick={() => void download("generic")}>
            Download CSV (every person and kind)
          </Button>
          <Button variant="default" loading={busy === "gusto"} onClick={() => void download("gusto")}>
            Download for Gusto
          </Button>
        </Group>
        <Group gap="sm" align="flex-end">
          <TextInput
            label="ADP company code"
            description="2–3 letters or digits"
            value={coCode}
            onChange={(e) => setCoCode(e.currentTarget.value)}
            w={160}
          />
          <TextInput
            label="ADP batch id"
            description="1–8 characters"
            value={batchId}
            onChange={(e) => setBatchId(e.currentTarget.value)}
            w={160}
          />
          <Button
            variant="default"
            loading={busy === "adp"}
            disabled={coCode.trim() === "" || batchId.trim() === ""}
            onClick={() => void download("adp")}
          >
            Download for ADP
          </Button>
        </Group>
        {currencies.length > 1 && (
          <Select
            label="Currency of the ADP and Gusto files"
            data={currencies}
            value={currency}
            onChange={setCurrency}
            w={200}
            allowDeselect={false}
          />
        )}
        <Text size="xs" c="gray.7">
          ADP and Gusto files list the people paid more than nothing; ADP needs each one's payroll id (set on the People
          page).
        </Text>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
