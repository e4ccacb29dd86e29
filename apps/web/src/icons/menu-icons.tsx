// One icon per side-menu entry (by menu index), drawn like the capability icons, so the collapsed menu stays usable.
import type { ReactNode } from "react";
import { capabilityGlyphs } from "./capability-icons.js";

const glyphs: Readonly<Record<number, ReactNode>> = {
  0: <path d="M5 15 l11 -10 l11 10 M8 13 v13 h6 v-7 h4 v7 h6 v-13" />,
  10: <path d="M7 5 h13 l5 5 v17 h-18 z M11 14 h10 M11 18 h10 M11 22 h6" />,
  11: <path d="M16 27 a11 11 0 1 1 0 -22 a11 11 0 1 1 0 22 M13 12 q3 -4 6 0 q1 3 -3 5 v2 M16 23 h.1" />,
  1: <path d="M6 7 h20 M6 13 h20 M6 19 h20 M6 25 h20 M3 7 h.1 M3 13 h.1 M3 19 h.1 M3 25 h.1" />,
  2: <path d="M12 14 a4 4 0 1 1 0 -8 a4 4 0 1 1 0 8 M4 26 q0 -9 8 -9 q8 0 8 9 M21 7 a4 4 0 1 1 2 8 M24 19 q5 1 5 7" />,
  3: capabilityGlyphs.extract,
  4: capabilityGlyphs.label,
  5: capabilityGlyphs.ipt,
  6: capabilityGlyphs.sanitize,
  7: capabilityGlyphs.merge,
  8: capabilityGlyphs.images,
  16: capabilityGlyphs.dataset,
  9: <path d="M5 6 h22 v20 h-22 z M5 12 h22 M5 19 h22 M12 6 v20" />,
  12: <path d="M16 4 v16 M9 13 l7 7 l7 -7 M5 22 v5 h22 v-5" />,
  13: <path d="M8 4 h11 l6 6 v18 h-17 z M19 4 v6 h6 M12 17 h8 M12 21 h8" />,
  14: <path d="M5 9 l11 -5 l11 5 l-11 5 z M5 9 v14 l11 5 v-14 M27 9 v14 l-11 5" />,
  15: <path d="M16 28 a12 12 0 1 1 0 -24 a12 12 0 1 1 0 24 M16 14 v8 M16 10 h.1" />,
};

export function MenuIcon({ index, size = 20 }: { index: number; size?: number }) {
  return (
    <svg
      className="icon menu-icon"
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {glyphs[index]}
    </svg>
  );
}
