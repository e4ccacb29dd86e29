// The sanitize capability: Suricata over the capture, then an exact split by session into clean and attack captures,
// alerts kept as eve.json and alerts.u2, and a summary. Reads top to bottom in `sanitize`.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  commonTimeline,
  type EveAlertFields,
  EveAlertReader,
  parseClassificationConfig,
  TimeHistogram,
  TracemillError,
} from "@tracemill/core";
import type { CapabilityResult, RunOptions } from "../capability.js";
import { defaultRulesetDir, loadRuleset, suricataClassificationFile } from "../suricata/rulesets.js";
import { DaemonDeclined } from "../suricata/served-daemon.js";
import { SocketLost } from "../suricata/socket-client.js";
import type { DaemonSource } from "../suricata/suricata-daemons.js";
import type { SuricataRun, SuricataRunSetup } from "../suricata/suricata-run.js";
import { AlertCounter } from "./alert-summary.js";
import { AlertedFlows } from "./alerted-flows.js";
import { type AttackFlow, AttackSessions } from "./attack-sessions.js";
import { EveFlowReader, type FlowKey, readEveFlowsAt } from "./eve-files.js";
import { FlowIdTable } from "./flow-id-table.js";
import { plainCapture } from "./plain-capture.js";
import { type SplitResult, splitCapture } from "./split-capture.js";
import { suricataInput } from "./suricata-input.js";
import { daemonScanner, oneShotScanner, type Scanner } from "./suricata-scanner.js";
import { Unified2File } from "./unified2-file.js";

export interface SanitizeOptions {
  /** Ruleset directory (a name is resolved by the caller, see resolveRuleset); default: the bundled rules/default. */
  ruleset?: string;
  /** Rules files to use instead of a ruleset's. */
  ruleFiles?: string[];
  /** classification.config to use; default: the ruleset's, else Suricata's own. */
  classificationFile?: string;
  /**
   * Severity threshold: a session is an attack when one of its alerts has priority ≤ minSeverity (1 is the most
   * severe). Default: every alert counts, whatever its priority.
   */
  minSeverity?: number;
  /** Extra Suricata runs over clean output that move any session still alerting to the attacks (default 2, 0 = none). */
  verifyPasses?: number;
  suricataPath?: string;
  /** Time limit of each Suricata run, in milliseconds (default 2 hours). */
  timeoutMs?: number;
  runmode?: "single" | "autofp";
  homeNet?: string;
  externalNet?: string;
  /**
   * Loaded Suricatas to scan with (a server's or worker's pool): rules compiled once per daemon, not per pass. A
   * daemon that dies or hangs is restarted and the sanitization run once more. Default: a Suricata process per pass.
   * A source that declines (DaemonDeclined: a served daemon loaded with other rules, gone, or hung) leaves the run to
   * a Suricata process per pass, after telling `onDaemonDeclined` why.
   */
  daemons?: DaemonSource;
  onDaemonDeclined?: (reason: string) => void;
}

interface PassReport {
  capture: "input" | "clean";
  suricataSeconds: number;
  alerts: number;
  /** Alerts at or above the threshold. */
  counted: number;
}

export async function sanitize(capture: string, options: SanitizeOptions, run: RunOptions): Promise<CapabilityResult> {
  const setup = await resolveSetup(options, run.signal);
  await fs.access(capture).catch(() => {
    throw new TracemillError("NOT_FOUND", `${capture} does not exist or cannot be read`, { file: capture });
  });
  if (!(await fs.stat(capture)).isFile()) {
    // Suricata reads the capture, then the split reads it again: a pipe would be empty the second time.
    throw new TracemillError(
      "BAD_INPUT",
      `${capture}: not a regular file; sanitize reads its capture twice, so save a piped capture to a file first`,
      { file: capture },
    );
  }
  const daemons = options.daemons;
  if (!daemons) return sanitizeWith(capture, options, run, setup, oneShotScanner(setup));
  for (let attempt = 1; ; attempt++) {
    let scanner: Scanner;
    try {
      scanner = await daemonScanner(setup, daemons, () => run.onProgress?.({ percent: 0, stage: "loading rules" }));
    } catch (error) {
      if (!(error instanceof DaemonDeclined)) throw error;
      options.onDaemonDeclined?.(error.message);
      return sanitizeWith(capture, options, run, setup, oneShotScanner(setup));
    }
    let broken = false;
    try {
      return await sanitizeWith(capture, options, run, setup, scanner);
    } catch (error) {
      if (!(error instanceof SocketLost)) throw error;
      broken = true;
      if (attempt === 1) continue;
      const tail = scanner.logTail();
      throw new TracemillError("TOOL_FAILED", `Suricata stopped answering twice: ${error.message}\n${tail}`, {
        stderr: tail,
      });
    } finally {
      await scanner.close(broken);
    }
  }
}

/** One sanitization with `scanner`'s Suricata. */
async function sanitizeWith(
  capture: string,
  options: SanitizeOptions,
  run: RunOptions,
  setup: SuricataRunSetup,
  scanner: Scanner,
): Promise<CapabilityResult> {
  const minSeverity = options.minSeverity ?? Number.POSITIVE_INFINITY;
  const verifyPasses = options.verifyPasses ?? 2;
  const classificationText = await fs.readFile(setup.classificationFile, "utf8").catch((error) => {
    const file = setup.classificationFile;
    const why = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new TracemillError("NOT_FOUND", `${file}: cannot read the classification file (${why})`, { file });
  });
  const classifications = parseClassificationConfig(classificationText, setup.classificationFile);
  const progress = (percent: number, stage: string) => run.onProgress?.({ percent, stage });
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "tracemill-sanitize-"));
  const written: string[] = [];
  const outFile = (name: string) => {
    const file = path.join(run.outDir, name);
    written.push(file);
    return file;
  };
  const u2 = new Unified2File(outFile("alerts.u2"));
  const eveOut = outFile("eve.json");
  try {
    // Suricata reads neither gzip nor an empty capture sensibly: unpack first, refuse empty input up front.
    const input = await plainCapture(capture, path.join(work, "input"), run.signal);
    const sessions = new AttackSessions();
    const counter = new AlertCounter();
    const passes: PassReport[] = [];
    const alerts = new EveAlertReader(classifications, (bytes) =>
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8"),
    );
    let suricata: SuricataRun | undefined;
    let unsessioned = 0;
    let framedPasses = 0;
    let inputSessions = 0;
    const alertTimes = new TimeHistogram();

    // Each Suricata run adds the sessions it alerted on; later runs read the clean output, whose packet numbers
    // map back to the input through the split's index.
    const collect = async (target: string, cleanIndex?: Uint32Array): Promise<number> => {
      const pass = passes.length + 1;
      // Scanning the input is 0–40 %, splitting 40–60 %, verification passes 60–90 %, splitting again 90–99 %.
      const stage = pass === 1 ? "scanning with Suricata" : `verifying the clean capture (pass ${pass})`;
      progress(pass === 1 ? 0 : 60, scanner.loadsRules && pass === 1 ? "loading rules" : stage);
      const onFraction = (fraction: number) =>
        progress(pass === 1 ? Math.round(fraction * 40) : 60 + Math.round(fraction * 30), stage);
      const alerted = new AlertedFlows();
      const report: PassReport = { capture: pass === 1 ? "input" : "clean", suricataSeconds: 0, alerts: 0, counted: 0 };
      const onAlert = (alert: EveAlertFields) => {
        report.alerts++;
        alertTimes.add(alert.tsSec, alert.tsNsec);
        counter.add(alert.rule);
        u2.write(alert);
        if (alert.rule.priority > minSeverity) return;
        report.counted++;
        if (alert.flowId !== undefined) alerted.noteAlert(alert, alert.flowId);
        else unsessioned++;
        if (alert.packetNumber) {
          sessions.addPacketNumber(cleanIndex ? cleanIndex[alert.packetNumber - 1] + 1 : alert.packetNumber);
        }
      };
      const dir = path.join(work, `pass-${pass}`);
      const eveFile = path.join(dir, "eve.json");
      // One object for every line: only an error keeps it, and it is thrown at once.
      const source = { file: eveFile, line: 0 };
      // Flow records of flows already alerted are used as they come; for the others the record's offset is kept,
      // so the few whose alert line was read after their flow record are read again by offset. Alerted flows
      // without any record are taken from their alerts.
      const flowReader = new EveFlowReader();
      const unwanted = new FlowIdTable();
      const settle = (id: FlowKey, flow: AttackFlow) => alerted.settle(id, flow, sessions);
      // A capture Suricata cannot read as it is (a link type it does not decode, or pcapng interfaces of several)
      // is read through an Ethernet copy with one record per packet, so packet numbers stay the capture's.
      const readable = await suricataInput(target, path.join(work, `suricata-input-${pass}.pcap`), run.signal);
      if (readable.framed) framedPasses++;
      suricata = await scanner.scan(readable.file, dir, {
        onEveLine: (bytes, start, end, line) => {
          source.line = line;
          const alert = alerts.read(bytes, start, end, source);
          if (alert) onAlert(alert);
        },
        onFlowLine: (bytes, start, end, _line, offset) => {
          flowReader.read(bytes, start, end, alerted.wants, settle);
          if (flowReader.unwanted !== undefined) unwanted.set(flowReader.unwanted, offset);
        },
        onFraction,
      });
      report.suricataSeconds = suricata.seconds;
      if (readable.framed) await fs.rm(readable.file, { force: true });
      if (pass === 1) {
        inputSessions = flowReader.sessions;
        await moveFile(suricata.eveFile, eveOut);
      } else await fs.appendFile(eveOut, await fs.readFile(suricata.eveFile));
      const offsets: number[] = [];
      for (const id of alerted.unsettled()) {
        const offset = unwanted.get(id);
        if (offset !== undefined) offsets.push(offset);
      }
      if (offsets.length > 0) {
        await readEveFlowsAt(
          suricata.flowsFile,
          offsets.sort((a, b) => a - b),
          alerted.wants,
          settle,
        );
      }
      // The flow records are done with: freed now, their pages can take the split's output rather than fresh ones.
      await fs.rm(suricata.flowsFile, { force: true });
      alerted.settleByAlerts(sessions);
      passes.push(report);
      return report.counted;
    };

    await collect(input);
    // Registered before the split writes them, so a failure removes them too.
    for (const name of ["clean.pcap", "attacks.pcap", "clean.pcapng", "attacks.pcapng"]) outFile(name);
    const split = (): Promise<SplitResult> => {
      const again = passes.length > 1;
      return splitCapture(input, sessions, run.outDir, {
        onProgress: (fraction) =>
          again
            ? progress(90 + Math.round(fraction * 9), "splitting the capture again")
            : progress(40 + Math.round(fraction * 20), "splitting the capture"),
        signal: run.signal,
      });
    };
    let result = await split();
    // Nothing alerted, or nothing left clean: the clean capture cannot alert (and Suricata rejects an empty one).
    let verified = sessions.empty || result.clean.packets === 0;
    for (let extra = 0; extra < verifyPasses && !verified; extra++) {
      const counted = await collect(path.join(run.outDir, result.clean.name), result.cleanIndex);
      if (counted === 0) verified = true;
      else {
        result = await split();
        if (result.clean.packets === 0) verified = true;
      }
    }
    await u2.close();

    const summary = {
      capture: path.basename(capture),
      // Names only: a summary is shown to other users of public jobs, server paths are not theirs to see.
      ruleset: {
        ruleFiles: setup.ruleFiles.map((file) => path.basename(file)),
        classificationFile: path.basename(setup.classificationFile),
      },
      suricata: {
        version: suricata?.version ?? "",
        seconds: round(passes.reduce((sum, p) => sum + p.suricataSeconds, 0)),
        ruleErrors: suricata?.ruleErrors ?? [],
        framedAsEthernet: framedPasses > 0,
      },
      minSeverity: Number.isFinite(minSeverity) ? minSeverity : null,
      passes: passes.map((p) => ({ ...p, suricataSeconds: round(p.suricataSeconds) })),
      verified,
      alerts: {
        total: counter.total,
        atOrAboveThreshold: passes.reduce((sum, p) => sum + p.counted, 0),
        withoutFlow: unsessioned,
        notInUnified2: u2.skipped,
        bySignature: counter.signatures(),
        byClasstype: counter.classtypes(),
      },
      packets: { input: result.packets, clean: result.clean.packets, attacks: result.attacks.packets },
      sessions: { clean: inputSessions - sessions.flowCount, attacks: sessions.flowCount },
      outputFormat: result.format,
      complete: result.damage === undefined,
      damage: result.damage ?? null,
      ...(result.warnings.length > 0 ? { warnings: result.warnings } : {}),
      // Packets of each output and alerts (all passes) over time, on 100 common bins (docs/formats.md).
      timeline: commonTimeline([
        { name: "clean", histogram: result.times.clean },
        { name: "attacks", histogram: result.times.attacks },
        { name: "alerts", histogram: alertTimes },
      ]),
    };
    await fs.writeFile(outFile("summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
    progress(100, "done");
    return {
      outputs: [
        ...result.outputs,
        { name: "alerts.u2", kind: "alerts-u2" },
        { name: "eve.json", kind: "eve-json" },
        { name: "summary.json", kind: "summary-json" },
      ],
      summary,
    };
  } catch (error) {
    await u2.close().catch(() => {});
    await Promise.all(written.map((file) => fs.rm(file, { force: true })));
    throw error;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** The Suricata setup a sanitization with `options` runs (what a served daemon must be loaded with to scan for it). */
export function suricataSetup(options: SanitizeOptions): Promise<SuricataRunSetup> {
  return resolveSetup(options);
}

async function resolveSetup(options: SanitizeOptions, signal?: AbortSignal): Promise<SuricataRunSetup> {
  if (options.minSeverity !== undefined && !(Number.isInteger(options.minSeverity) && options.minSeverity >= 1)) {
    throw new TracemillError(
      "BAD_OPTION",
      `the severity threshold must be a whole number ≥ 1, not ${options.minSeverity}`,
    );
  }
  if (options.verifyPasses !== undefined && !(Number.isInteger(options.verifyPasses) && options.verifyPasses >= 0)) {
    throw new TracemillError(
      "BAD_OPTION",
      `verification passes must be a whole number ≥ 0, not ${options.verifyPasses}`,
    );
  }
  let ruleFiles: string[];
  // Absolute, as the rules files: a served daemon's setup is compared by path whatever the directory a run starts in.
  let classificationFile = options.classificationFile && path.resolve(options.classificationFile);
  if (options.ruleFiles && options.ruleFiles.length > 0) {
    ruleFiles = options.ruleFiles.map((f) => path.resolve(f));
    for (const file of ruleFiles) {
      await fs.access(file).catch(() => {
        throw new TracemillError("NOT_FOUND", `rules file ${file} does not exist or cannot be read`, { file });
      });
    }
    classificationFile ??= suricataClassificationFile;
  } else {
    const ruleset = await loadRuleset(options.ruleset ?? defaultRulesetDir());
    ruleFiles = ruleset.ruleFiles;
    classificationFile ??= ruleset.classificationFile;
  }
  await fs.access(classificationFile).catch(() => {
    throw new TracemillError("NOT_FOUND", `classification file ${classificationFile} does not exist`, {
      file: classificationFile,
    });
  });
  return {
    ruleFiles,
    classificationFile,
    homeNet: options.homeNet ?? "any",
    externalNet: options.externalNet ?? "any",
    runmode: options.runmode ?? "single",
    suricataPath: options.suricataPath,
    timeoutMs: options.timeoutMs,
    signal,
  };
}

/** Moves a file of the temporary directory into the output, copying when they are on different file systems. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await fs.rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    await fs.copyFile(from, to);
  }
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
