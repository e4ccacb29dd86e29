// The app shell: header, side menu, the routed page, footer.
import { Route, Routes } from "react-router";

export function App() {
  return (
    <div className="app">
      <header className="app-header">
        <span className="brand">Tracemill</span>
      </header>
      <nav aria-label="Main menu" className="side-menu">
        <ul>
          <li>
            <a href="/">Home</a>
          </li>
        </ul>
      </nav>
      <main>
        <Routes>
          <Route path="*" element={<h1>Tracemill</h1>} />
        </Routes>
      </main>
      <footer className="app-footer">Tracemill</footer>
    </div>
  );
}
