// Public surface of engine/browse: a job's outputs read back for pictures without reading them whole per request (an
// images zip's pages and PNGs, an IPT output's sessions and series), over indexes made in one pass.
export { type GalleryImage, type GalleryRow, type ImageGallery, openImageGallery } from "./image-gallery.js";
export {
  type FindOptions,
  type IptFiles,
  type IptOutput,
  type IptSeries,
  type IptSession,
  openIptOutput,
} from "./ipt-sessions.js";
