// The collapsible side menu (starts open; collapsed, only the icons show, the names kept for screen readers and as
// tooltips); Download and Sample Datasets show only when signed in.
import { useState } from "react";
import { NavLink } from "react-router";
import { useAuth } from "../auth/auth-context.js";
import { MenuIcon } from "../icons/menu-icons.js";
import { menuSections } from "./menu-items.js";

export function SideMenu() {
  const [open, setOpen] = useState(true);
  const { isAuthenticated } = useAuth();
  return (
    <nav aria-label="Main menu" className={`side-menu ${open ? "open" : "collapsed"}`}>
      <button
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls="side-menu-list"
        aria-label={open ? "Collapse menu" : "Expand menu"}
        onClick={() => setOpen((o) => !o)}
      >
        <svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true">
          <path d={open ? "M11 4 l-5 5 l5 5" : "M7 4 l5 5 l-5 5"} fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      </button>
      <div id="side-menu-list">
        {menuSections.map((section, s) => (
          <section key={section.title ?? `s${s}`} aria-label={section.title}>
            {section.title && <h2 className={open ? "menu-section" : "visually-hidden"}>{section.title}</h2>}
            <ul>
              {section.items
                .filter((item) => !item.signedInOnly || isAuthenticated)
                .map((item) => (
                  <li key={item.index} data-index={item.index}>
                    {item.to ? (
                      <NavLink to={item.to} end title={open ? undefined : item.label}>
                        <MenuIcon index={item.index} />
                        <span className={open ? undefined : "visually-hidden"}>{item.label}</span>
                      </NavLink>
                    ) : (
                      <a href={item.href} download title={open ? undefined : item.label}>
                        <MenuIcon index={item.index} />
                        <span className={open ? undefined : "visually-hidden"}>{item.label}</span>
                      </a>
                    )}
                  </li>
                ))}
            </ul>
          </section>
        ))}
      </div>
    </nav>
  );
}
