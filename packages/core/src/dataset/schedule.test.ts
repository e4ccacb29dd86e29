// Schedules as written → UTC microsecond windows: local times across summer-time changes, fixed and explicit
// offsets, the precision of ends, and errors naming the field. Expected instants are Date.UTC of hand-converted times.
import { describe, expect, it } from "vitest";
import { TracemillError } from "../errors.js";
import { compileSchedule, type ScheduleSpec, type ScheduleWindowSpec } from "./schedule.js";

/** UTC microseconds of a UTC date and time (month 1-based). */
function utc(year: number, month: number, day: number, hour: number, minute: number, second = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute, second) * 1000;
}

const MINUTE = 60_000_000;
const SECOND = 1_000_000;

function window(start: string, end: string, more: Partial<ScheduleWindowSpec> = {}): ScheduleWindowSpec {
  return { class: "attack", start, end, attackers: ["10.0.0.1"], victims: ["10.0.0.2"], ...more };
}

/** The compiled [startUs, endUs) of one window. */
function span(timezone: string, start: string, end: string, more: Partial<ScheduleWindowSpec> = {}): number[] {
  const [w] = compileSchedule({ timezone, windows: [window(start, end, more)] }).windows;
  return [w.startUs, w.endUs];
}

describe("schedule times in a time zone", () => {
  it("reads Atlantic daylight time in July as UTC-3, the end's minute included", () => {
    expect(span("America/Halifax", "2017-07-04 09:20", "2017-07-04 10:20")).toEqual([
      utc(2017, 7, 4, 12, 20),
      utc(2017, 7, 4, 13, 21),
    ]);
    expect(span("America/Halifax", "2017-07-04T09:20", "2017-07-04T09:20")).toEqual([
      utc(2017, 7, 4, 12, 20),
      utc(2017, 7, 4, 12, 21),
    ]);
  });

  it("reads Atlantic standard time in January as UTC-4", () => {
    expect(span("America/Halifax", "2017-01-10 09:00", "2017-01-10 09:59")).toEqual([
      utc(2017, 1, 10, 13, 0),
      utc(2017, 1, 10, 14, 0),
    ]);
  });

  it("Halifax, 12 March 2017 (02:00 AST becomes 03:00 ADT): a skipped time moves forward by the hour skipped", () => {
    // 01:59 AST = 05:59Z; 02:30 does not exist and reads as 03:30 ADT = 06:30Z; 03:00 ADT = 06:00Z.
    expect(span("America/Halifax", "2017-03-12 01:59", "2017-03-12 02:30")).toEqual([
      utc(2017, 3, 12, 5, 59),
      utc(2017, 3, 12, 6, 31),
    ]);
    expect(span("America/Halifax", "2017-03-12 03:00", "2017-03-12 03:00:00")[0]).toBe(utc(2017, 3, 12, 6, 0));
  });

  it("Halifax, 5 November 2017 (02:00 ADT becomes 01:00 AST): a repeated time is its first occurrence", () => {
    // 01:30 ADT = 04:30Z (the first 01:30); the second, 01:30 AST = 05:30Z, needs its offset written.
    expect(span("America/Halifax", "2017-11-05 01:30", "2017-11-05 01:30:00-04:00")).toEqual([
      utc(2017, 11, 5, 4, 30),
      utc(2017, 11, 5, 5, 30, 1),
    ]);
    // 00:30 ADT (03:30Z) to the minute 02:29 AST (ends 02:30 AST = 06:30Z): two hours of clock, three of time.
    const [start, end] = span("America/Halifax", "2017-11-05 00:30", "2017-11-05 02:29");
    expect([start, end]).toEqual([utc(2017, 11, 5, 3, 30), utc(2017, 11, 5, 6, 30)]);
    expect(end - start).toBe(3 * 60 * MINUTE);
  });

  it("Berlin, 26 March 2017 (02:00 CET becomes 03:00 CEST)", () => {
    // 01:30 CET = 00:30Z; 02:30 is skipped and reads as 03:30 CEST = 01:30Z, as 03:30 itself does.
    expect(span("Europe/Berlin", "2017-03-26 01:30", "2017-03-26 02:30:00")).toEqual([
      utc(2017, 3, 26, 0, 30),
      utc(2017, 3, 26, 1, 30, 1),
    ]);
    expect(span("Europe/Berlin", "2017-03-26 03:30", "2017-03-26 03:30")[0]).toBe(utc(2017, 3, 26, 1, 30));
  });

  it("Berlin, 29 October 2017 (03:00 CEST becomes 02:00 CET)", () => {
    // 02:30 CEST = 00:30Z is the first 02:30; 02:30 CET = 01:30Z is written with its offset.
    expect(span("Europe/Berlin", "2017-10-29 02:30", "2017-10-29T02:30+01:00")).toEqual([
      utc(2017, 10, 29, 0, 30),
      utc(2017, 10, 29, 1, 31),
    ]);
    // 01:00 CEST (23:00Z the day before) to 03:59 CET (ends 04:00 CET = 03:00Z): four hours.
    expect(span("Europe/Berlin", "2017-10-29 01:00", "2017-10-29 03:59")).toEqual([
      utc(2017, 10, 28, 23, 0),
      utc(2017, 10, 29, 3, 0),
    ]);
  });

  it("reads fixed offsets, and a window's own time zone over the schedule's", () => {
    expect(span("-03:00", "2017-07-04 09:20", "2017-07-04 09:20")).toEqual([
      utc(2017, 7, 4, 12, 20),
      utc(2017, 7, 4, 12, 21),
    ]);
    expect(span("+05:30", "2017-07-04 09:20", "2017-07-04 09:20")[0]).toBe(utc(2017, 7, 4, 3, 50));
    expect(span("+00:00", "2017-01-01 00:00", "2017-01-01 00:00")[0]).toBe(utc(2017, 1, 1, 0, 0));
    expect(span("America/Halifax", "2017-07-04 09:20", "2017-07-04 09:20", { timezone: "Europe/Berlin" })[0]).toBe(
      utc(2017, 7, 4, 7, 20),
    );
  });

  it("lets an explicit offset win over the time zone", () => {
    expect(span("America/Halifax", "2017-07-04T09:20:00Z", "2017-07-04T12:20:00+02:00")).toEqual([
      utc(2017, 7, 4, 9, 20),
      utc(2017, 7, 4, 10, 20, 1),
    ]);
    expect(span("Europe/Berlin", "2017-07-04 09:20z", "2017-07-04 09:25-03:30")).toEqual([
      utc(2017, 7, 4, 9, 20),
      utc(2017, 7, 4, 12, 56),
    ]);
  });

  it("includes an end's last unit as written: second, tenth, microsecond", () => {
    const start = utc(2017, 7, 4, 9, 20);
    expect(span("UTC", "2017-07-04 09:20", "2017-07-04 09:20:15")).toEqual([start, start + 16 * SECOND]);
    expect(span("UTC", "2017-07-04 09:20", "2017-07-04 09:20:15.5")).toEqual([start, start + 15.6 * SECOND]);
    expect(span("UTC", "2017-07-04 09:20:00.000001", "2017-07-04 09:20:15.123456")).toEqual([
      start + 1,
      start + 15 * SECOND + 123_457,
    ]);
  });

  it("sorts windows by start (the earliest first), keeping each one's place in the spec", () => {
    const schedule = compileSchedule({
      timezone: "UTC",
      windows: [
        window("2017-07-04 10:00", "2017-07-04 10:10", { id: "late" }),
        window("2017-07-04 09:00", "2017-07-04 09:10"),
        window("2017-07-04 10:00", "2017-07-04 10:05"),
      ],
    });
    expect(schedule.windows.map((w) => [w.id, w.index])).toEqual([
      ["w2", 1],
      ["late", 0],
      ["w3", 2],
    ]);
  });

  it("compiles ports, protocol and attempted", () => {
    const [w] = compileSchedule({
      timezone: "UTC",
      windows: [
        window("2017-07-04 10:00", "2017-07-04 10:10", { ports: [21, "8000-8100"], protocol: "udp", attempted: true }),
      ],
    }).windows;
    expect([...(w.ports ?? [])]).toEqual([21, 21, 8000, 8100]);
    expect([w.protocol, w.attempted, w.className]).toEqual([17, true, "attack"]);
    const [any] = compileSchedule({
      timezone: "UTC",
      windows: [window("2017-07-04 10:00", "2017-07-04 10:10")],
    }).windows;
    expect([any.ports, any.protocol, any.attempted]).toEqual([null, 0, false]);
  });
});

describe("schedule errors", () => {
  /** The error of compiling `spec`: its code, field and message. */
  function errorOf(spec: unknown): { code: string; field: unknown; message: string } {
    try {
      compileSchedule(spec as ScheduleSpec);
    } catch (error) {
      if (!(error instanceof TracemillError)) throw error;
      return { code: error.code, field: error.context.field, message: error.message };
    }
    throw new Error("no error");
  }

  function windowError(more: Partial<Record<keyof ScheduleWindowSpec, unknown>>, at = 0) {
    const windows: unknown[] = [window("2017-07-04 09:00", "2017-07-04 09:10")];
    windows[at] = { ...window("2017-07-04 09:00", "2017-07-04 09:10"), ...more };
    return errorOf({ timezone: "America/Halifax", windows });
  }

  it.each([
    [{ start: "2017-07-04" }, "windows[0].start", /not a date and time/],
    [{ start: "2017-13-01 09:00" }, "windows[0].start", /no month 13/],
    [{ end: "2017-02-29 09:00" }, "windows[0].end", /no day 29/],
    [{ end: "2017-07-04 24:00" }, "windows[0].end", /out of range/],
    [{ end: "2017-07-04 09:00:00.1234567" }, "windows[0].end", /not a date and time/],
    [{ start: "1969-12-31 23:59" }, "windows[0].start", /year must be 1970/],
    [{ start: "2017-07-04 09:00+24:00" }, "windows[0].start", /offset/],
    [{ end: "2017-07-04 08:58" }, "windows[0].end", /before the start/],
    [{ start: undefined }, "windows[0].start", /missing/],
    [{ class: "" }, "windows[0].class", /must be text/],
    [{ id: 7 }, "windows[0].id", /must be text/],
    [{ timezone: "Mars/Olympus" }, "windows[0].timezone", /not a time zone/],
    [{ timezone: "-03:75" }, "windows[0].timezone", /out of range/],
    [{ attackers: [] }, "windows[0].attackers", /at least one/],
    [{ victims: ["10.0.0.0/8", "10.0.0.1/24"] }, "windows[0].victims[1]", /10\.0\.0\.0\/24/],
    [{ ports: [21, 70000] }, "windows[0].ports[1]", /not a port/],
    [{ ports: ["90-80"] }, "windows[0].ports[0]", /ends before it starts/],
    [{ ports: ["ssh"] }, "windows[0].ports[0]", /not a port/],
    [{ ports: [] }, "windows[0].ports", /at least one/],
    [{ protocol: "icmp" }, "windows[0].protocol", /"tcp" or "udp"/],
    [{ attempted: "yes" }, "windows[0].attempted", /true or false/],
  ])("refuses %j naming %s", (more, field, why) => {
    const error = windowError(more);
    expect(error.code).toBe("BAD_OPTION");
    expect(error.field).toBe(`labels.schedule.${field}`);
    expect(error.message.startsWith(`labels.schedule.${field}: `)).toBe(true);
    expect(error.message).toMatch(why);
  });

  it("names the window by its place, and a second use of an id", () => {
    expect(windowError({ end: "nonsense" }, 3).field).toBe("labels.schedule.windows[3].end");
    const twice = windowError({ id: "w1" }, 1);
    expect(twice.field).toBe("labels.schedule.windows[1].id");
    expect(twice.message).toMatch(/"w1" is already the id of labels.schedule.windows\[0\]/);
  });

  it("refuses a schedule without a time zone or windows", () => {
    expect(errorOf({ windows: [window("2017-07-04 09:00", "2017-07-04 09:10")] })).toMatchObject({
      code: "BAD_OPTION",
      field: "labels.schedule.timezone",
    });
    expect(errorOf({ timezone: "Nowhere/Town", windows: [] }).field).toBe("labels.schedule.timezone");
    expect(errorOf({ timezone: "UTC", windows: [] }).field).toBe("labels.schedule.windows");
  });

  it("names fields under the prefix it is given", () => {
    try {
      compileSchedule({ timezone: "UTC", windows: [window("x", "y")] }, { field: "schedule" });
      expect.unreachable();
    } catch (error) {
      expect((error as TracemillError).context.field).toBe("schedule.windows[0].start");
    }
  });
});
