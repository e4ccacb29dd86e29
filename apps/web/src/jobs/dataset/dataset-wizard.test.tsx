// The dataset wizard: several captures, attack captures with a class each, a schedule typed or pasted, the split and
// the audit, each field saying its allowed range as it is typed, and the request the server gets.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { createdJob, mockUploadsEachTest, pcapBytes, renderApp, wizardServer } from "../../test-utils.js";

/** Each file picked is other bytes: identical ones would go up once. */
let picked = 0;

mockUploadsEachTest();
beforeEach(() => {
  picked = 0;
});

function server() {
  return wizardServer({
    featureSets: [
      { name: "tracemill", description: "Tracemill's features", columns: [], defaults: {} },
      { name: "cic", description: "CICFlowMeter's", columns: [], defaults: {} },
    ],
  });
}

async function choose(label: string, name: string) {
  const bytes = pcapBytes(++picked);
  await userEvent.upload(screen.getByLabelText(`${label}: choose a file`), new File([bytes as BlobPart], name));
  await screen.findAllByText(new RegExp(name.replace(".", "\\.")));
}

const next = () => userEvent.click(screen.getByRole("button", { name: "Next" }));
/** Replaces a field's whole text at once, as a paste would. */
const set = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });
const errorOf = (field: HTMLElement) => {
  const id = field
    .getAttribute("aria-describedby")
    ?.split(" ")
    .find((part) => part.endsWith("-error"));
  return id ? document.getElementById(id)?.textContent : undefined;
};

async function throughGeneral() {
  await userEvent.type(await screen.findByLabelText("Title"), "CIC Tuesday");
  await choose("Capture", "monday.pcap");
  await choose("Another capture (optional: a dataset of several)", "tuesday.pcap");
  await next();
}

describe("the dataset wizard", () => {
  it("lists the steps and reads several captures together, not as parts", async () => {
    server();
    renderApp("/ui/dataset");
    await userEvent.type(await screen.findByLabelText("Title"), "Week");
    await choose("Capture", "monday.pcap");
    expect(screen.getByText(/read one after the other in one run/)).toBeInTheDocument();
    expect(
      within(screen.getByRole("list", { name: "Steps" }))
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["1. General", "2. Labels", "3. Schedule", "4. Split", "5. Audit"]);
  });

  it("gives each attack capture a class, checked as it is typed, and holds Next until it is one", async () => {
    server();
    renderApp("/ui/dataset");
    await throughGeneral();
    await choose("Attack capture (optional)", "PortScan.pcap");
    const klass = screen.getByLabelText("class of PortScan.pcap");
    expect(klass).toHaveValue("PortScan");
    await userEvent.clear(klass);
    expect(klass).toHaveAttribute("aria-invalid", "true");
    expect(errorOf(klass)).toBe("A class name of 1 to 100 characters");
    await next();
    expect(screen.getByRole("alert")).toHaveTextContent("labels.attackClasses.0: A class name of 1 to 100 characters");
    await userEvent.type(klass, "DoS");
    expect(klass).not.toHaveAttribute("aria-invalid");
    expect(screen.queryByRole("alert")).toBeNull();
    await next();
    expect(screen.getByRole("form", { name: "Dataset Builder: Schedule" })).toBeInTheDocument();
  });

  it("checks each schedule window's fields as they are typed, in the browser's time zone at first", async () => {
    server();
    renderApp("/ui/dataset");
    await throughGeneral();
    await next();
    await userEvent.click(screen.getByRole("button", { name: "Add a window" }));
    const zone = screen.getByLabelText("Time zone of the schedule");
    expect(zone).toHaveValue(Intl.DateTimeFormat().resolvedOptions().timeZone);
    set(zone, "Mars/Olympus");
    expect(errorOf(zone)).toMatch(/An IANA time zone such as "America\/Halifax"/);
    set(zone, "America/Halifax");
    expect(errorOf(zone)).toBeUndefined();
    const start = screen.getByLabelText("Window 1: start");
    const end = screen.getByLabelText("Window 1: end");
    set(start, "4 July 2017");
    expect(errorOf(start)).toMatch(/A date and time such as "2017-07-04 09:20"/);
    set(start, "2017-07-04 09:20");
    set(end, "2017-07-04 08:00");
    expect(errorOf(start)).toBeUndefined();
    expect(errorOf(end)).toBe("The end is before the start");
    set(end, "2017-07-04 10:20");
    expect(errorOf(end)).toBeUndefined();
    set(screen.getByLabelText("Window 1: attackers"), "172.16.0.300");
    expect(errorOf(screen.getByLabelText("Window 1: attackers"))).toBe(
      '"172.16.0.300" is not an IPv4 or IPv6 address or CIDR',
    );
    set(screen.getByLabelText("Window 1: ports"), "21, 70000");
    expect(errorOf(screen.getByLabelText("Window 1: ports"))).toBe(
      '"70000" is not a port from 0 to 65535 or a range such as 8000-8100',
    );
    await next();
    expect(screen.getByRole("alert")).toHaveTextContent(/^labels\.schedule\.windows\.0\.class: /);
  });

  it("takes a pasted YAML schedule, and refuses one that is not a schedule, naming the field", async () => {
    server();
    renderApp("/ui/dataset");
    await throughGeneral();
    await next();
    await userEvent.click(screen.getByText("Paste a schedule (YAML or JSON)"));
    const text = screen.getByLabelText(/Schedule as YAML or JSON/);
    set(text, "timezone: UTC\nwindows:\n  - { class: DoS, start: '2017-07-05 09:47', end: '2017-07-05 10:10' }\n");
    await userEvent.click(screen.getByRole("button", { name: "Use this schedule" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(/^labels\.schedule\.windows\.0\.attackers: /);
    set(
      text,
      [
        "labels:",
        "  schedule:",
        "    timezone: America/Halifax",
        "    windows:",
        "      - { id: ftp, class: FTP-Patator, start: '2017-07-04 09:20', end: '2017-07-04 10:20',",
        "          attackers: [172.16.0.1], victims: [192.168.10.50], ports: [21] }",
        "      - { class: SSH-Patator, start: '2017-07-04 14:00', end: '2017-07-04 15:00',",
        "          attackers: [172.16.0.1], victims: [192.168.10.50], ports: [22], attempted: true }",
      ].join("\n"),
    );
    await userEvent.click(screen.getByRole("button", { name: "Use this schedule" }));
    await waitFor(() => expect(screen.getByLabelText("Window 2: class")).toHaveValue("SSH-Patator"));
    expect(screen.getByLabelText("Time zone of the schedule")).toHaveValue("America/Halifax");
    expect(screen.getByLabelText("Window 1: ports")).toHaveValue("21");
  });

  it("says the fractions' sum and each number's range as they are typed, then sends the whole spec", async () => {
    const calls = server();
    renderApp("/ui/dataset");
    await throughGeneral();
    await choose("Attack capture (optional)", "dos.pcap");
    await next();
    await userEvent.click(screen.getByRole("button", { name: "Add a window" }));
    set(screen.getByLabelText("Time zone of the schedule"), "-03:00");
    set(screen.getByLabelText("Window 1: class"), "FTP-Patator");
    set(screen.getByLabelText("Window 1: start"), "2017-07-04 09:20");
    set(screen.getByLabelText("Window 1: end"), "2017-07-04 10:20");
    set(screen.getByLabelText("Window 1: attackers"), "172.16.0.1");
    set(screen.getByLabelText("Window 1: victims"), "192.168.10.50, 192.168.10.0/24");
    set(screen.getByLabelText("Window 1: ports"), "21 8000-8100");
    await next();

    await userEvent.selectOptions(screen.getByLabelText("Split method"), "host");
    const train = screen.getByLabelText("Split 1: fraction");
    set(train, "0.7");
    expect(screen.getByText("The fractions add up to 0.9; they must add up to 1")).toBeInTheDocument();
    set(train, "1");
    expect(errorOf(train)).toBe("Above 0 and below 1");
    set(train, "0.8");
    expect(screen.queryByText(/The fractions add up/)).toBeNull();
    const seed = screen.getByLabelText("Seed (the same seed gives the same split)");
    set(seed, "-1");
    expect(errorOf(seed)).toBe("A whole number from 0 to 4294967295");
    await next();
    expect(screen.getByRole("alert")).toHaveTextContent("split.seed: A whole number from 0 to 4294967295");
    set(seed, "7");
    await next();

    const threshold = screen.getByLabelText("Flag a column whose balanced accuracy reaches");
    set(threshold, "1.5");
    expect(errorOf(threshold)).toBe("Above 0, at most 1");
    set(threshold, "0.95");
    await userEvent.click(screen.getByRole("switch", { name: "Also write each split without the flagged columns" }));
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets"));
    const body = createdJob(calls);
    expect(body).toEqual({
      title: "CIC Tuesday",
      description: "",
      public: false,
      capability: "dataset",
      inputs: {
        capture: [{ fileId: "file-1" }, { fileId: "file-2" }],
        attacks: [{ fileId: "file-3" }],
      },
      params: {
        features: ["tracemill"],
        idleTimeout: 120,
        activeTimeout: 1800,
        length: "ip",
        labels: {
          provenance: true,
          attackClasses: ["dos"],
          schedule: {
            timezone: "-03:00",
            windows: [
              {
                class: "FTP-Patator",
                start: "2017-07-04 09:20",
                end: "2017-07-04 10:20",
                attackers: ["172.16.0.1"],
                victims: ["192.168.10.50", "192.168.10.0/24"],
                ports: [21, "8000-8100"],
              },
            ],
          },
        },
        split: {
          method: "host",
          splits: [
            { name: "train", fraction: 0.8 },
            { name: "test", fraction: 0.2 },
          ],
          seed: 7,
          hostKey: "both",
        },
        audit: { depth: 2, threshold: 0.95, sampleRows: 200000, dropFlagged: true },
      },
    });
  });
});
