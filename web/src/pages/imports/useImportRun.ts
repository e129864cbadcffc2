import { useRef, useState } from "react";
import { ApiError } from "../../api/errors";
import {
  dryRunImport,
  type ImportAnswer,
  type ImportProblem,
  type ImportRequest,
  useImport,
} from "../../data/imports/mutations";
import { problemOfDetail } from "./result";

// The page's one import in flight or answered: a dry run, then the import itself, each sending the
// file with its progress, then waiting on the server. An answer belongs to the file, resource and
// mapping it was asked for (`basis`): change any of them and the page no longer shows it.

export type RunKind = "check" | "import";

/** What every step of a run carries: which run (a new one draws its answer afresh) and what it was asked for. */
interface Run {
  attempt: number;
  kind: RunKind;
  basis: string;
}

export type RunState =
  | { step: "idle" }
  | (Run & { step: "sending"; sent: number; total: number })
  | (Run & { step: "working" })
  | (Run & { step: "answered"; answer: ImportAnswer })
  /** A 422 naming rows (a real import: nothing written). */
  | (Run & { step: "refused"; errors: ImportProblem[] })
  | (Run & { step: "failed"; error: unknown });

/** The rows a 422 names, when it names rows (else the refusal is about the whole file or the mapping). */
function rowProblems(error: unknown): ImportProblem[] | undefined {
  if (!(error instanceof ApiError) || error.status !== 422 || error.code !== "validation_error") return undefined;
  const problems = (error.details ?? []).map(problemOfDetail);
  return problems.some((problem) => problem.row !== null) ? problems : undefined;
}

export function useImportRun() {
  const [state, setState] = useState<RunState>({ step: "idle" });
  const attempts = useRef(0);
  const importAll = useImport();

  const run = async (kind: RunKind, basis: string, request: ImportRequest) => {
    const of: Run = { attempt: ++attempts.current, kind, basis };
    const mine = (now: RunState) => now.step !== "idle" && now.attempt === of.attempt;
    setState({ ...of, step: "sending", sent: 0, total: request.file.size });
    const watched: ImportRequest = {
      ...request,
      onProgress: (sent, total) =>
        setState((now) => (mine(now) && now.step === "sending" ? { ...now, sent, total } : now)),
      onSent: () => setState((now) => (mine(now) && now.step === "sending" ? { ...of, step: "working" } : now)),
    };
    try {
      const answer = kind === "check" ? await dryRunImport(watched) : await importAll(watched);
      setState({ ...of, step: "answered", answer });
    } catch (error) {
      const errors = rowProblems(error);
      setState(errors ? { ...of, step: "refused", errors } : { ...of, step: "failed", error });
    }
  };

  return { state, run, reset: () => setState({ step: "idle" }) };
}
