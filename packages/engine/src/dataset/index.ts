// Public surface of engine/dataset: a dataset built from its spec (docs/datasets.md).
export { buildDataset, type DatasetRunOptions } from "./build/build-dataset.js";
export { CARD_JSON, CARD_MARKDOWN } from "./card/dataset-card.js";
export { type DatasetSpec, datasetSpecSchema } from "./spec/dataset-spec.js";
export { type LoadedSpec, loadSpec, parseSpec } from "./spec/load-spec.js";
