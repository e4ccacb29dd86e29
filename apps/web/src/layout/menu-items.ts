// The side menu of SPEC §2: items in order, their sections, and the index ↔ route table.
export interface MenuItem {
  label: string;
  index: number;
  /** A client route, or a download link (href) for the signed-in-only archives. */
  to?: string;
  href?: string;
  signedInOnly?: boolean;
}

export interface MenuSection {
  title?: string;
  items: MenuItem[];
}

/** SPEC §2 "Menu index to route"; an index missing here goes to /. */
export const routeByIndex: Readonly<Record<number, string>> = {
  0: "/",
  1: "/ui/dataSets",
  2: "/ui/public/dataSets",
  3: "/ui/extract",
  4: "/ui/extract/labeling",
  5: "/ui/extract/ipts",
  6: "/ui/clear",
  7: "/ui/merge",
  8: "/ui/extract/images",
  9: "/ui/resources/feature/set",
  10: "/ui/resources/capabilities",
  11: "/ui/resources/usage",
  13: "/ui/resources/file/formats",
  15: "/ui/resources/about",
  16: "/ui/dataset",
};

export function routeForIndex(index: number): string {
  return routeByIndex[index] ?? "/";
}

const item = (label: string, index: number): MenuItem => ({ label, index, to: routeForIndex(index) });

export const menuSections: MenuSection[] = [
  { items: [item("Home", 0), item("Capabilities Descriptions", 10), item("Capability Usage", 11)] },
  { title: "Jobs", items: [item("My Jobs List", 1), item("Shared Jobs", 2)] },
  {
    title: "Capabilities",
    items: [
      item("Feature Extraction", 3),
      item("Traffic Sanitization", 6),
      item("Controlled Traffic Aggregation", 7),
      item("Automated Traffic Labeling", 4),
      item("Time Series Generator (IPT)", 5),
      item("Grayscale Image Generator", 8),
      item("Dataset Builder", 16),
    ],
  },
  {
    title: "Resources",
    items: [
      item("Feature Set", 9),
      { label: "Download", index: 12, href: "/code", signedInOnly: true },
      item("File Formats", 13),
      { label: "Sample Datasets", index: 14, href: "/sampledatasets", signedInOnly: true },
      item("About / Contact", 15),
    ],
  },
];
