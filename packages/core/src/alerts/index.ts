// Public surface of core/alerts: unified2 read/write, classification.config, EVE alert lines (as text or bytes), the
// normalized Alert.
export { type Alert, alertFromUnified2Event } from "./alert.js";
export { unified2RecordsFromAlert } from "./alert-to-unified2.js";
export { decodeBase64 } from "./base64.js";
export { type Classification, type ClassificationTable, parseClassificationConfig } from "./classification.js";
export { type EveRule, type EveSource, parseEveAlertLine, parseEveTimestamp } from "./eve-alert.js";
export { EveAlertFields, eveFlowKey, eveFlowKeyOfText } from "./eve-alert-fields.js";
export { EveAlertReader } from "./eve-alert-scan.js";
export {
  ascii,
  bytesEqual,
  digitsValue,
  EveTimeReader,
  eveMembers,
  readIpAddress,
  skipValue,
  stringEnd,
  type TimeOut,
} from "./eve-bytes.js";
export { writeUnified2Alert } from "./unified2-alert-writer.js";
export {
  readUnified2,
  Unified2Reader,
  type Unified2ReaderOptions,
  type Unified2RecordAt,
  type Unified2Warning,
} from "./unified2-reader.js";
export {
  type Unified2Event,
  type Unified2EventType,
  type Unified2ExtraData,
  type Unified2Packet,
  type Unified2Record,
  Unified2Type,
} from "./unified2-records.js";
export { encodeUnified2Record } from "./unified2-writer.js";
