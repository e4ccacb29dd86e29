// Profile: who is signed in, their jobs at a glance and the files they uploaded.
import { useQuery } from "@tanstack/react-query";
import { jobStatuses } from "@tracemill/contracts";
import { api } from "../api/client.js";
import { useAuth } from "../auth/auth-context.js";
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
      {files.data && files.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Format</th>
              <th scope="col">Size</th>
              <th scope="col">Uploaded</th>
            </tr>
          </thead>
          <tbody>
            {files.data.map((file) => (
              <tr key={file.id}>
                <td>
                  <FileIcon kind={fileKindOf(file.format, file.name)} size={24} /> {file.name}
                </td>
                <td>{file.format}</td>
                <td>{formatBytes(file.size)}</td>
                <td>{new Date(file.createdAt).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
