// The Suricata configuration Tracemill generates for one offline run: EVE alerts (with packet and flow data) and
// flow records, nothing else logged. Values are JSON-quoted, which YAML reads as plain strings.

export interface SuricataConfigInput {
  /** Directory Suricata writes into (a private temporary directory). */
  logDir: string;
  /** Absolute paths of the *.rules files to load. */
  ruleFiles: string[];
  classificationFile: string;
  /** Suricata's HOME_NET; "any" by default, so rules fire whichever side of the capture is "home". */
  homeNet: string;
  /** Suricata's EXTERNAL_NET; "any" by default for the same reason. */
  externalNet: string;
}

/** File names inside logDir. */
export const eveAlertsFile = "eve.json";
export const eveFlowsFile = "flows.json";

const q = (value: string) => JSON.stringify(value);

export function suricataConfig(input: SuricataConfigInput): string {
  const servers = ["HTTP_SERVERS", "SMTP_SERVERS", "SQL_SERVERS", "DNS_SERVERS", "TELNET_SERVERS", "DC_SERVERS"];
  const ics = ["DNP3_SERVER", "DNP3_CLIENT", "MODBUS_CLIENT", "MODBUS_SERVER", "ENIP_CLIENT", "ENIP_SERVER"];
  const ports: [string, string][] = [
    ["HTTP_PORTS", "80"],
    ["SHELLCODE_PORTS", "!80"],
    ["ORACLE_PORTS", "1521"],
    ["SSH_PORTS", "22"],
    ["DNP3_PORTS", "20000"],
    ["MODBUS_PORTS", "502"],
    ["FILE_DATA_PORTS", "[$HTTP_PORTS,110,143]"],
    ["FTP_PORTS", "21"],
    ["GENEVE_PORTS", "6081"],
    ["VXLAN_PORTS", "4789"],
    ["TEREDO_PORTS", "3544"],
  ];
  const lines = [
    "%YAML 1.1",
    "---",
    "vars:",
    "  address-groups:",
    `    HOME_NET: ${q(input.homeNet)}`,
    `    EXTERNAL_NET: ${q(input.externalNet)}`,
    ...servers.map((name) => `    ${name}: "$HOME_NET"`),
    '    AIM_SERVERS: "$EXTERNAL_NET"',
    ...ics.map((name) => `    ${name}: "$HOME_NET"`),
    "  port-groups:",
    ...ports.map(([name, value]) => `    ${name}: ${q(value)}`),
    `default-log-dir: ${q(input.logDir)}`,
    `classification-file: ${q(input.classificationFile)}`,
    "rule-files:",
    ...input.ruleFiles.map((file) => `  - ${q(file)}`),
    "outputs:",
    "  - eve-log:",
    "      enabled: yes",
    "      filetype: regular",
    `      filename: ${eveAlertsFile}`,
    "      types:",
    "        - alert:",
    "            packet: yes",
    // Flow metadata (addresses, start) is what the split needs; app-layer and rule metadata would only make the
    // lines several times longer to write and parse.
    "            metadata:",
    "              app-layer: false",
    "              flow: true",
    "              rule:",
    "                metadata: false",
    "                raw: false",
    "            payload: no",
    "  - eve-log:",
    "      enabled: yes",
    "      filetype: regular",
    `      filename: ${eveFlowsFile}`,
    "      types:",
    "        - flow",
    "stats:",
    "  enabled: no",
    "logging:",
    "  default-log-level: notice",
    "  outputs:",
    "    - console:",
    "        enabled: yes",
    "",
  ];
  return lines.join("\n");
}
