// Which charts a run summary yields (protocols, signatures, classtypes).
import { describe, expect, it } from "vitest";
import { summaryCharts } from "./summary-charts.js";

describe("summaryCharts", () => {
  const summary = {
    sessions: { total: 3, byProtocol: { tcp: 2, udp: 1 } },
    alerts: {
      total: 3,
      bySignature: [
        { sid: 1, signature: "ET EXPLOIT probe", alerts: 2 },
        { sid: 2, signature: "GPL share access", alerts: 1 },
      ],
      byClasstype: [{ classtype: "attempted-admin", classId: 4, alerts: 3 }],
    },
  };

  it("charts sessions per protocol and alerts per signature and classtype", () => {
    expect(summaryCharts(summary, false)).toEqual([
      {
        title: "Sessions per protocol",
        bars: [
          { label: "TCP", value: 2 },
          { label: "UDP", value: 1 },
        ],
      },
      {
        title: "Alerts per signature",
        bars: [
          { label: "ET EXPLOIT probe", value: 2 },
          { label: "GPL share access", value: 1 },
        ],
      },
      { title: "Alerts per classtype", bars: [{ label: "attempted-admin", value: 3 }] },
    ]);
  });

  it("leaves protocols to the CSV charts when there is a CSV, and finds nothing in a plain summary", () => {
    expect(summaryCharts(summary, true).map((c) => c.title)).toEqual(["Alerts per signature", "Alerts per classtype"]);
    expect(summaryCharts({ packets: { read: 5 }, list: [1, 2] }, false)).toEqual([]);
  });
});
