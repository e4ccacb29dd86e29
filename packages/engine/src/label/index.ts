// Public surface of the label capability: binary labels (provenance or 5-tuples) and per-class labels (alerts).
export { type LabelSourceOptions, provenanceBeside } from "./create-labeller.js";
export { CLASSIFIED_CSV_FILE, LABELLED_CSV_FILE, type LabelOptions, labelCapture } from "./label-capture.js";
export { type AlertFormat, loadAlerts, loadClassification } from "./load-alerts.js";
