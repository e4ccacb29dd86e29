// Profile: who is signed in, their jobs at a glance and their uploads, each once (the server keeps identical bytes
// once), with the jobs that read it and a Delete for those no job reads.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { jobStatuses, type ListedUpload } from "@tracemill/contracts";
import { useState } from "react";
import { Link } from "react-router";
import { api, messagesOf } from "../api/client.js";
import { useAuth } from "../auth/auth-context.js";
import { ErrorBanners } from "../forms/fields.js";
import { StatusIcon, statusLabel } from "../icons/capability-icons.js";
import { FileIcon, fileKindOf } from "../icons/file-icons.js";
import { formatBytes } from "../jobs/file-picker.js";
import { usePageTitle } from "../layout/page-title.js";

export function ProfilePage() {
  usePageTitle("Profile");
  const { user } = useAuth();
  const jobs = useQuery({ queryKey: ["jobs", "mine", "all"], queryFn: api.allMyJobs });
  const files = useQuery({ queryKey: ["files"], queryFn: api.files, retry: false });
  return (
    <section>
      <h1>Profile</h1>
      <dl className="facts">
        <dt>User name</dt>
        <dd>{user?.userName}</dd>
        <dt>Email</dt>
        <dd>{user?.email}</dd>
        <dt>Jobs</dt>
        <dd>{jobs.data?.length ?? "…"}</dd>
      </dl>
      <h2>Jobs by status</h2>
      <ul className="inline-list">
        {jobStatuses.map((status) => (
          <li key={status}>
            <StatusIcon status={status} size={18} /> {statusLabel(status)}:{" "}
            {jobs.data?.filter((j) => j.status === status).length ?? 0}
          </li>
        ))}
      </ul>
      <h2>Uploaded files</h2>
      {files.data?.length === 0 && <p>No files uploaded yet.</p>}
      {files.data && files.data.length > 0 && <UploadTable uploads={files.data} />}
    </section>
  );
}

function UploadTable({ uploads }: { uploads: ListedUpload[] }) {
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string>();
  const remove = useMutation({
    mutationFn: (file: ListedUpload) => api.deleteFile(file.id),
    onSuccess: async (_, file) => {
      setDone(`Deleted ${file.name}.`);
      await queryClient.invalidateQueries({ queryKey: ["files"] });
    },
    onMutate: () => setDone(undefined),
  });
  return (
    <>
      <ErrorBanners messages={remove.error ? messagesOf(remove.error) : []} />
      {done && (
        <div className="banners">
          <div className="banner success" role="status">
            {done}
          </div>
        </div>
      )}
      <p className="hint">A file goes with the last job that reads it; one that no job reads can be deleted here.</p>
      <div className="scroll-x">
        <table className="uploads wide">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Format</th>
              <th scope="col">Size</th>
              <th scope="col">Uploaded</th>
              <th scope="col">Use</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {uploads.map((file) => (
              <tr key={file.id}>
                <td>
                  <FileIcon kind={fileKindOf(file.format, file.name)} size={24} /> {file.name}
                </td>
                <td className="nowrap">
                  {file.format}
                  {file.compression && ` (${file.compression})`}
                </td>
                <td className="nowrap">{formatBytes(file.size)}</td>
                <td className="nowrap">{new Date(file.createdAt).toLocaleString()}</td>
                <td>
                  <FileUse file={file} />
                </td>
                <td className="nowrap">
                  {file.usedBy.length === 0 && (
                    <DeleteUpload file={file} pending={remove.isPending} onDelete={() => remove.mutate(file)} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** "Used by 2 jobs: A, B" with a link to each, or "Unused". */
function FileUse({ file }: { file: ListedUpload }) {
  const count = file.usedBy.length;
  if (count === 0) return <>Unused</>;
  return (
    <>
      Used by {count} job{count === 1 ? "" : "s"}:{" "}
      {file.usedBy.map((job, i) => (
        <span key={job.id}>
          {i > 0 && ", "}
          <Link to={`/ui/details?id=${encodeURIComponent(job.id)}`}>{job.title}</Link>
        </span>
      ))}
    </>
  );
}

function DeleteUpload(props: { file: ListedUpload; pending: boolean; onDelete(): void }) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button
        type="button"
        className="danger"
        aria-label={`Delete ${props.file.name}`}
        onClick={() => setConfirming(true)}
      >
        Delete
      </button>
    );
  }
  return (
    <fieldset className="confirm">
      <legend>Delete “{props.file.name}”?</legend>
      <button type="button" className="danger" disabled={props.pending} onClick={props.onDelete}>
        Yes, delete
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        Keep
      </button>
    </fieldset>
  );
}
