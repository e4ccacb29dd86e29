// Public surface of core/file-kind: what a file is from its first bytes. Pure and small, so the web app imports it
// (`@tracemill/core/file-kind`) to check a file before upload with the server's own rules.
//
//   const { kind, problem } = sniffFileKind(head, { complete: head.length === size });
//   if (kind === "gzip") sniffGzipContent(inflatedStart);     // the caller inflates: the core has no zlib
export {
  captureKinds,
  FILE_KIND_HEAD_BYTES,
  type FileKind,
  type FileKindResult,
  fileKindMessages,
  type SniffOptions,
  sizeProblem,
  sniffFileKind,
  sniffGzipContent,
} from "./sniff-file-kind.js";
