// Which icon an output gets from its kind and name, and how the Parquet icon reads.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FileIcon, fileKindOf, MIN_FILE_ICON_PX } from "./file-icons.js";

describe("fileKindOf", () => {
  it("gives an extraction's Parquet output its own kind, by kind or by name", () => {
    expect(fileKindOf("features-parquet", "features.parquet")).toBe("parquet");
    expect(fileKindOf("features-parquet", "renamed")).toBe("parquet");
    expect(fileKindOf("", "Day1.PARQUET")).toBe("parquet");
  });

  it("keeps the CSV beside it a CSV, and its summary JSON", () => {
    expect(fileKindOf("features-csv", "features.csv")).toBe("csv");
    expect(fileKindOf("summary-json", "summary.json")).toBe("json");
    expect(fileKindOf("", "parquet-notes.txt")).toBe("txt-ipt");
  });
});

describe("FileIcon", () => {
  it("names a Parquet file for screen readers and tags it apart from the CSV", () => {
    render(
      <>
        <FileIcon kind={fileKindOf("features-parquet", "features.parquet")} />
        <FileIcon kind="csv" />
      </>,
    );
    const parquet = screen.getByRole("img", { name: "Parquet of session features (typed columns)" });
    const csv = screen.getByRole("img", { name: "CSV of session features" });
    expect(parquet).toHaveTextContent("PARQ");
    expect(csv).toHaveTextContent("CSV");
    const band = (icon: HTMLElement) => icon.querySelector("rect")?.getAttribute("fill");
    expect(band(parquet)).not.toBe(band(csv));
  });
});

describe("FileIcon size", () => {
  it("is never drawn narrower than 24 px, where its tag stays legible, and keeps the page's proportions", () => {
    expect(MIN_FILE_ICON_PX).toBe(24);
    render(
      <>
        <FileIcon kind="pcap" size={12} label="small" />
        <FileIcon kind="pcap" size={40} label="large" />
      </>,
    );
    const small = screen.getByRole("img", { name: "small" });
    expect(small).toHaveAttribute("width", "24");
    expect(Number(small.getAttribute("height"))).toBeCloseTo(28.8, 6);
    expect(screen.getByRole("img", { name: "large" })).toHaveAttribute("width", "40");
  });
});
