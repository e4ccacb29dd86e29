// An ipt job's plots on its details: sessions found by the server in the whole output (the first ones, or by address
// and port, with at least so many packets), ticked to plot their inter-packet times, which the server reads for the
// chosen sessions only.

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type IptSession, type Job, MAX_IPT_SERIES } from "@tracemill/contracts";
import { type FormEvent, useId, useState } from "react";
import { api, messagesOf } from "../../api/client.js";
import { ScaleChoice } from "../../charts/scale-choice.js";
import { ErrorBanners } from "../../forms/fields.js";
import { formatNumber } from "../explorer/table-outputs.js";
import { sessionText, startText } from "../session-text.js";
import { IptChart, type IptScale } from "./ipt-chart.js";

/** Sessions listed at a time. */
export const IPT_LIST_PAGE = 10;

export function IptPlot({ job, name }: { job: Job; name: string }) {
  const id = useId();
  const [text, setText] = useState("");
  const [least, setLeast] = useState("2");
  const [search, setSearch] = useState({ q: "", minPackets: 2 });
  /** Where each page shown so far started, the current one last. */
  const [starts, setStarts] = useState([1]);
  const [chosen, setChosen] = useState<IptSession[]>([]);
  const [scale, setScale] = useState<IptScale>("linear");
  const from = starts[starts.length - 1];
  const list = useQuery({
    queryKey: ["ipt-sessions", job.id, name, search.q, search.minPackets, from],
    queryFn: () => api.iptSessions(job.id, name, { ...search, from, limit: IPT_LIST_PAGE }),
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });
  const rows = chosen.map((session) => session.row).sort((a, b) => a - b);
  const series = useQuery({
    queryKey: ["ipt-series", job.id, name, rows.join(",")],
    queryFn: () => api.iptSeries(job.id, name, rows),
    enabled: rows.length > 0,
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSearch({ q: text.trim(), minPackets: Math.max(1, Math.floor(Number(least)) || 1) });
    setStarts([1]);
  }
  const toggle = (session: IptSession) =>
    setChosen((now) =>
      now.some((s) => s.row === session.row) ? now.filter((s) => s.row !== session.row) : [...now, session],
    );
  const page = list.data;
  const searched = page && (page.nextFrom === null ? page.total : page.nextFrom - 1);

  return (
    <section className="ipt-plot" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Inter-packet times</h2>
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is unknown to browsers before 2023 and to jsdom */}
      <form className="ipt-search" role="search" onSubmit={submit}>
        <label>
          Address or port{" "}
          <input
            type="search"
            value={text}
            placeholder="10.0.0.1 443"
            onChange={(event) => setText(event.target.value)}
          />
        </label>{" "}
        <label>
          At least{" "}
          <input
            type="number"
            min={1}
            className="short-number"
            value={least}
            onChange={(event) => setLeast(event.target.value)}
          />{" "}
          packets
        </label>{" "}
        <button type="submit">Find sessions</button>
      </form>
      {list.error && <ErrorBanners messages={messagesOf(list.error)} />}
      {!page && !list.error && <p aria-busy="true">Reading {name}…</p>}
      {page && (
        <>
          <p>
            {page.sessions.length === 0
              ? "No session found"
              : `${page.sessions.length} session${page.sessions.length === 1 ? "" : "s"} found`}{" "}
            in rows {formatNumber(from)}–{formatNumber(searched ?? from)} of {formatNumber(page.total)}
            {search.q ? ` matching “${search.q}”` : ""}, with at least {search.minPackets} packets. Tick up to{" "}
            {MAX_IPT_SERIES} to plot them.
          </p>
          {page.sessions.length > 0 && (
            <table className="ipt-sessions">
              <thead>
                <tr>
                  <th scope="col">Plot</th>
                  <th scope="col">Row</th>
                  <th scope="col">Session</th>
                  <th scope="col">Start</th>
                  <th scope="col">Packets</th>
                </tr>
              </thead>
              <tbody aria-busy={list.isPlaceholderData}>
                {page.sessions.map((session) => {
                  const ticked = chosen.some((s) => s.row === session.row);
                  return (
                    <tr key={session.row}>
                      <td>
                        <input
                          type="checkbox"
                          aria-label={`Plot ${sessionText(session.session)} (row ${session.row})`}
                          checked={ticked}
                          disabled={!ticked && chosen.length >= MAX_IPT_SERIES}
                          onChange={() => toggle(session)}
                        />
                      </td>
                      <td>{formatNumber(session.row)}</td>
                      <td>{sessionText(session.session)}</td>
                      <td title={session.session.start}>{startText(session.session.start)}</td>
                      <td>{formatNumber(session.packets)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
          <nav className="gallery-pages" aria-label="Session pages">
            <button type="button" disabled={starts.length === 1} onClick={() => setStarts((now) => now.slice(0, -1))}>
              Previous sessions
            </button>
            <button
              type="button"
              disabled={page.nextFrom === null}
              onClick={() => page.nextFrom !== null && setStarts((now) => [...now, page.nextFrom as number])}
            >
              {page.sessions.length < IPT_LIST_PAGE ? "Search further" : "Next sessions"}
            </button>
          </nav>
        </>
      )}
      {chosen.length > 0 && (
        <>
          <ScaleChoice className="inline-choice" name={`${id}-scale`} value={scale} onChange={setScale} />
          {series.error && <ErrorBanners messages={messagesOf(series.error)} />}
          {series.data && <IptChart series={series.data.series} scale={scale} maxGaps={series.data.maxGaps} />}
        </>
      )}
    </section>
  );
}
