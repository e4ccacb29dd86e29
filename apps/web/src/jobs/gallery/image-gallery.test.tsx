// The gallery on an images job's details: pages of thumbnails asked of the server, and the zoom dialog showing an image
// with each pixel row's session and labels, opened from a thumbnail, kept focus inside, and closed by Escape with the
// focus back on its thumbnail.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { GalleryImage, GalleryPage } from "@tracemill/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { detailsServer, makeJob, renderApp, searchOf, udpSession } from "../../test-utils.js";

afterEach(() => vi.unstubAllGlobals());

const TOTAL = 30;
const job = makeJob({
  id: "j1",
  title: "Pictures",
  capability: "images",
  outputs: [
    { name: "images.zip", kind: "images-zip", size: 1000 },
    { name: "summary.json", kind: "summary-json", size: 10 },
  ],
});

/** Image n holds the sessions (udpSession) 2n−1 and 2n; even ones attack. */
function image(number: number): GalleryImage {
  return {
    number,
    name: `images/image-${String(number).padStart(6, "0")}.png`,
    rows: [0, 1].map((row) => {
      const csvRow = 2 * number - 1 + row;
      return {
        row,
        csvRow,
        labels: [String(csvRow % 2 === 0 ? 1 : 0), csvRow % 2 === 0 ? "Attempted Recon" : ""],
        session: udpSession(csvRow),
      };
    }),
  };
}

function page(url: string): GalleryPage {
  const query = searchOf(url);
  const offset = Number(query.get("offset") ?? 0);
  const limit = Number(query.get("limit") ?? 24);
  const numbers = Array.from({ length: Math.max(0, Math.min(limit, TOTAL - offset)) }, (_, i) => offset + i + 1);
  return {
    output: "images.zip",
    total: TOTAL,
    sessions: 2 * TOTAL,
    labelColumns: ["label", "class"],
    offset,
    limit,
    nextOffset: offset + limit < TOTAL ? offset + limit : null,
    images: numbers.map(image),
  };
}

function serve() {
  return detailsServer(job, {
    "GET /api/jobs/j1/outputs/images.zip/images": (_body, url) => ({ body: page(url) }),
  });
}

const gallery = () => screen.findByRole("region", { name: "Images" });
const thumbnails = (region: HTMLElement) =>
  within(region).getAllByRole("img", { name: /^Sessions drawn in grayscale/ });

describe("the image gallery", () => {
  it("shows a page of thumbnails from the server and pages on and back", async () => {
    const calls = serve();
    renderApp("/ui/details?id=j1");
    const region = await gallery();
    expect(await within(region).findByText("Images 1–24 of 30: 60 sessions, one per pixel row.")).toBeVisible();
    expect(thumbnails(region)).toHaveLength(24);
    expect(thumbnails(region)[0]).toHaveAttribute("src", "/api/jobs/j1/outputs/images.zip/images/1");
    expect(thumbnails(region)[0]).toHaveClass("pixelated");
    expect(within(region).getByText("#2: sessions 3–4, 1 attack")).toBeVisible();
    expect(within(region).getByRole("button", { name: "Previous images" })).toBeDisabled();

    await userEvent.click(within(region).getByRole("button", { name: "Next images" }));
    expect(await within(region).findByText("Images 25–30 of 30: 60 sessions, one per pixel row.")).toBeVisible();
    expect(thumbnails(region).map((img) => img.getAttribute("alt"))).toEqual(
      Array.from({ length: 6 }, (_, i) => `Sessions drawn in grayscale: images/image-0000${25 + i}.png`),
    );
    expect(within(region).getByRole("button", { name: "Next images" })).toBeDisabled();
    const asked = calls.filter((call) => call.path === "/api/jobs/j1/outputs/images.zip/images");
    expect(asked.length).toBeGreaterThanOrEqual(2);

    await userEvent.click(within(region).getByRole("button", { name: "Previous images" }));
    expect(await within(region).findByText("Images 1–24 of 30: 60 sessions, one per pixel row.")).toBeVisible();
  });

  it("zooms an image in a dialog with each row's session and labels, keeps focus in it, and closes on Escape", async () => {
    serve();
    renderApp("/ui/details?id=j1");
    const region = await gallery();
    await within(region).findByText(/^Images 1–24/);
    const thumb = within(region).getByRole("button", { name: "Sessions drawn in grayscale: images/image-000003.png" });
    await userEvent.click(thumb);

    const dialog = screen.getByRole("dialog", { name: "Image 3: images/image-000003.png" });
    expect(dialog).toHaveAttribute("aria-modal", "true");
    const close = within(dialog).getByRole("button", { name: "Close" });
    expect(close).toHaveFocus();
    const enlarged = within(dialog).getByRole("img", { name: /enlarged: 2 rows of 280 bytes/ });
    expect(enlarged).toHaveAttribute("src", "/api/jobs/j1/outputs/images.zip/images/3");
    // Each pixel row is 20 px tall beside its table row; 2 px per pixel across by default.
    expect(enlarged).toHaveAttribute("height", "40");
    expect(enlarged).toHaveAttribute("width", "560");
    const rows = within(dialog).getAllByRole("row").slice(1);
    expect(rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent))).toEqual([
      ["0", "UDP 10.0.0.5:1005 → 192.0.2.1:53", "2023-11-14 22:13:25.000 UTC", "0", ""],
      ["1", "UDP 10.0.0.6:1006 → 192.0.2.1:53", "2023-11-14 22:13:26.000 UTC", "1", "Attempted Recon"],
    ]);
    expect(within(dialog).getByRole("columnheader", { name: "class" })).toBeInTheDocument();

    // Tab from the last control wraps to the first; Shift+Tab from the first wraps back.
    await userEvent.tab();
    expect(within(dialog).getByRole("combobox", { name: "Pixel width" })).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(close).toHaveFocus();

    await userEvent.click(within(dialog).getByRole("button", { name: "Next image" }));
    expect(screen.getByRole("dialog", { name: "Image 4: images/image-000004.png" })).toBeVisible();

    // Escape closes; focus goes to the thumbnail of the image shown last.
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(
      within(region).getByRole("button", { name: "Sessions drawn in grayscale: images/image-000004.png" }),
    ).toHaveFocus();
  });
});
