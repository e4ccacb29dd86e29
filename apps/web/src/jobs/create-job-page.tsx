// A capability's creation screen: multi-step with Next; step 1 asks title, description, public and the file.

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Capability, type InputRole, jobMessages, multiCaptureCapabilities } from "@tracemill/contracts";
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router";
import { api, messagesOf } from "../api/client.js";
import { ErrorBanners, TextField } from "../forms/fields.js";
import { CapabilityIcon, capabilityNames } from "../icons/capability-icons.js";
import { withNotice } from "../layout/flash-notice.js";
import { usePageTitle } from "../layout/page-title.js";
import { capabilityForms } from "./capability-forms.js";
import {
  type Draft,
  emptyDraft,
  localFiles,
  takesSeveralCaptures,
  toRequest,
  withDerivedParam,
  withParam,
  withUploaded,
  withUploadProblem,
} from "./draft.js";
import { FilePicker, isLocal, type PickedFile } from "./file-picker.js";
import { MoreCaptures } from "./more-captures.js";
import { SwitchParam } from "./param-fields.js";
import type { StepProps } from "./step-props.js";
import { UploadFailed, type UploadStatus, uploadPicked } from "./upload-picked.js";

/** A job to run again (run-again.tsx): the draft made from it, and what the user must choose anew. */
export interface RunAgainStart {
  job: { id: string; title: string };
  draft: Draft;
  notices: string[];
}

export function CreateJobPage({ capability, again }: { capability: Capability; again?: RunAgainStart }) {
  const form = capabilityForms[capability];
  usePageTitle(capabilityNames[capability]);
  const [draft, setDraft] = useState<Draft>(() => again?.draft ?? emptyDraft(capability));
  const [step, setStep] = useState(0);
  // What Next or Create last found missing; every change checks the step again, so a fix clears it at once (and
  // undoing the fix brings it back), while the next missing thing waits for the next Next.
  const [reported, setReported] = useState<string>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState<UploadStatus>();
  const create = useMutation({
    // The picked files go up only now (or are found on the server by their digest), then the job is created.
    mutationFn: async () => {
      const refs = await uploadPicked(localFiles(capability, draft), setUploading).finally(() =>
        setUploading(undefined),
      );
      // Kept in the draft: should the job be refused, a second submit sends no file again.
      setDraft((d) => withUploaded(d, refs));
      return api.createJob(toRequest(capability, withUploaded(draft, refs)));
    },
    onError: (error) => {
      if (!(error instanceof UploadFailed)) return;
      setDraft((d) => withUploadProblem(withUploaded(d, error.done), error.file, error.message));
      goTo(stepShowing(error.file));
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["jobs"] });
      navigate("/ui/dataSets", withNotice(`Job “${draft.title.trim()}” created.`));
    },
  });

  const props: StepProps = {
    draft,
    setInput: (role: InputRole, picked) => setDraft((d) => ({ ...d, inputs: { ...d.inputs, [role]: picked } })),
    setList: (role: InputRole, files) => setDraft((d) => ({ ...d, lists: { ...d.lists, [role]: files } })),
    setParam: (name, value) => setDraft((d) => withParam(d, name, value)),
    deriveParam: (name, value) => setDraft((d) => withDerivedParam(d, name, value)),
  };
  const stepTitles = ["General", ...form.steps.map((s) => s.title)];
  const last = stepTitles.length - 1;

  function missingNow(): string | undefined {
    if (step === 0) {
      if (!draft.title.trim()) return jobMessages.titleRequired;
      if (!draft.inputs[form.mainRole]) return `Choose the ${form.mainLabel.toLowerCase()}`;
      return undefined;
    }
    return form.steps[step - 1].missing(draft);
  }

  const problem = reported !== undefined && missingNow() === reported ? reported : undefined;

  /** The step whose fields show this picked file: where its upload's failure is said. */
  function stepShowing(file: File): number {
    const holds = (picked: PickedFile | undefined) =>
      picked !== undefined && isLocal(picked.ref) && picked.ref.local === file;
    if (holds(draft.inputs[form.mainRole]) || draft.moreCaptures.some(holds)) return 0;
    const index = form.steps.findIndex((s) =>
      s.roles?.some((role) => holds(draft.inputs[role]) || (draft.lists[role] ?? []).some(holds)),
    );
    return index < 0 ? step : index + 1;
  }

  function goTo(next: number) {
    setReported(undefined);
    setStep(next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const missing = missingNow();
    setReported(missing);
    if (missing) return;
    if (step < last) goTo(step + 1);
    else create.mutate();
  }

  return (
    <section className="create-job">
      <h1>
        <CapabilityIcon capability={capability} size={36} /> {capabilityNames[capability]}
      </h1>
      <p className="lead">{form.intro}</p>
      {again && (
        <section className="run-again" aria-label="Run again">
          <p>
            Prefilled from <Link to={`/ui/details?id=${encodeURIComponent(again.job.id)}`}>{again.job.title}</Link>:
            change what you like, then create the job.
          </p>
          {again.notices.length > 0 && (
            <ul className="job-warning" role="status">
              {again.notices.map((notice) => (
                <li key={notice}>{notice}</li>
              ))}
            </ul>
          )}
        </section>
      )}
      <ol className="steps" aria-label="Steps">
        {stepTitles.map((title, i) => (
          <li
            key={title}
            className={i === step ? "current" : i < step ? "done" : ""}
            aria-current={i === step ? "step" : undefined}
          >
            {i + 1}. {title}
          </li>
        ))}
      </ol>
      {/* A failed upload is said at its file's field instead. */}
      <ErrorBanners
        messages={create.error && !(create.error instanceof UploadFailed) ? messagesOf(create.error) : []}
      />
      <form onSubmit={submit} noValidate aria-label={`${capabilityNames[capability]}: ${stepTitles[step]}`}>
        {step === 0 ? (
          <>
            <TextField
              label="Title"
              name="title"
              required
              value={draft.title}
              onChange={(e) => setDraft({ ...draft, title: e.target.value })}
            />
            <div className="field">
              <label htmlFor="job-description">Description</label>
              <textarea
                id="job-description"
                rows={3}
                value={draft.description}
                onChange={(e) => setDraft({ ...draft, description: e.target.value })}
              />
            </div>
            <SwitchParam
              label="Public (listed under Shared Jobs)"
              checked={draft.public}
              onChange={(v) => setDraft({ ...draft, public: v })}
            />
            <FilePicker
              label={form.mainLabel}
              kind="capture"
              required
              value={draft.inputs[form.mainRole]}
              onChange={(v) => props.setInput(form.mainRole, v)}
            />
            {takesSeveralCaptures(capability) && draft.inputs.capture && (
              <MoreCaptures
                together={!multiCaptureCapabilities.includes(capability)}
                value={draft.moreCaptures}
                onChange={(moreCaptures) => setDraft((d) => ({ ...d, moreCaptures }))}
              />
            )}
          </>
        ) : (
          form.steps[step - 1].render(props)
        )}
        {step === last && (
          <details className="advanced">
            <summary>Advanced parameters</summary>
            {form.advanced(props)}
          </details>
        )}
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
        {uploading && (
          <div className="upload-progress" role="status">
            <progress
              max={1}
              value={uploading.fraction}
              aria-label={`${uploading.stage === "reading" ? "Reading" : "Upload of"} ${uploading.name}`}
            />
            <span>
              {uploading.stage === "reading" ? "Reading" : "Uploading"} {uploading.name} ({uploading.index} of{" "}
              {uploading.count}): {Math.round(uploading.fraction * 100)} %
            </span>
          </div>
        )}
        <div className="form-actions">
          {step > 0 && (
            <button type="button" onClick={() => goTo(step - 1)}>
              Back
            </button>
          )}
          <button type="submit" className="primary" disabled={create.isPending}>
            {step < last ? "Next" : create.isPending ? "Creating…" : "Create job"}
          </button>
        </div>
      </form>
    </section>
  );
}
