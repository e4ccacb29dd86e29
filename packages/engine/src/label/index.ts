// Public surface of the label capability: binary labels (provenance or 5-tuples) and per-class labels (alerts).
export { CLASSIFIED_CSV_FILE, LABELLED_CSV_FILE, type LabelOptions, labelCapture } from "./label-capture.js";
