// Edit a job (/ui/update?id=…&title=…): title, description and the public switch, for its owner only; anyone else
// (a public job of someone else's) gets a read-only notice and the way to its details, never a form.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { api, messagesOf } from "../api/client.js";
import { ErrorBanners, TextField } from "../forms/fields.js";
import { withNotice } from "../layout/flash-notice.js";
import { usePageTitle } from "../layout/page-title.js";
import { SwitchParam } from "./param-fields.js";

export function UpdateJobPage() {
  const [search] = useSearchParams();
  const id = search.get("id") ?? "";
  const job = useQuery({ queryKey: ["job", id], queryFn: () => api.job(id), enabled: id !== "" });
  const [form, setForm] = useState({ title: search.get("title") ?? "", description: "", public: false });
  // Once a submit has found the title empty, every change checks it again: typing one clears the error at once.
  const [checked, setChecked] = useState(false);
  const problem = checked && !form.title.trim() ? "Title is required" : undefined;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  usePageTitle(job.data ? (job.data.isOwner ? `Edit: ${job.data.title}` : job.data.title) : "Edit job");
  useEffect(() => {
    if (job.data) setForm({ title: job.data.title, description: job.data.description, public: job.data.public });
  }, [job.data]);
  const save = useMutation({
    mutationFn: () =>
      api.updateJob(id, { title: form.title.trim(), description: form.description, public: form.public }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["jobs"] });
      await queryClient.invalidateQueries({ queryKey: ["job", id] });
      navigate("/ui/dataSets", withNotice(`Saved “${form.title.trim()}”.`));
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    if (form.title.trim()) save.mutate();
  }

  if (!id) return <p>No job chosen.</p>;
  if (job.data && !job.data.isOwner) {
    return (
      <section className="narrow">
        <h1>{job.data.title}</h1>
        <p className="job-warning" role="status">
          This job is {job.data.owner.userName}'s: only its owner can edit it. You can read it and use its outputs.
        </p>
        <p>
          <Link to={`/ui/details?id=${encodeURIComponent(id)}`}>See the job's details</Link>
        </p>
      </section>
    );
  }
  if (!job.data && !job.error) return <p aria-busy="true">Loading…</p>;
  return (
    <section className="narrow">
      <h1>Edit job</h1>
      <ErrorBanners messages={[job.error, save.error].flatMap((e) => (e ? messagesOf(e) : []))} />
      <form onSubmit={submit} noValidate>
        <TextField
          label="Title"
          name="title"
          value={form.title}
          error={problem}
          onChange={(e) => setForm({ ...form, title: e.target.value })}
        />
        <div className="field">
          <label htmlFor="update-description">Description</label>
          <textarea
            id="update-description"
            rows={4}
            value={form.description}
            onChange={(e) => setForm({ ...form, description: e.target.value })}
          />
        </div>
        <SwitchParam
          label="Public (listed under Shared Jobs)"
          checked={form.public}
          onChange={(v) => setForm({ ...form, public: v })}
        />
        <div className="form-actions">
          <button type="button" onClick={() => navigate(-1)}>
            Back
          </button>
          <button type="submit" className="primary" disabled={save.isPending || !job.data}>
            Save
          </button>
        </div>
      </form>
    </section>
  );
}
