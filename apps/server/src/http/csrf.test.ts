// Which requests count as cross-site: browsers' Sec-Fetch-Site and Origin headers on state-changing methods.
import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { isCrossSite } from "./csrf.js";

const request = (method: string, headers: Record<string, string>) =>
  ({ method, headers: { host: "lab.example:8080", ...headers } }) as unknown as FastifyRequest;

describe("isCrossSite", () => {
  it("never blocks reads", () => {
    expect(isCrossSite(request("GET", { "sec-fetch-site": "cross-site", origin: "http://evil.example" }))).toBe(false);
  });

  it("trusts Sec-Fetch-Site when a browser sends it", () => {
    expect(isCrossSite(request("POST", { "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(isCrossSite(request("POST", { "sec-fetch-site": "none" }))).toBe(false);
    expect(isCrossSite(request("POST", { "sec-fetch-site": "same-site" }))).toBe(true);
    expect(isCrossSite(request("DELETE", { "sec-fetch-site": "cross-site" }))).toBe(true);
  });

  it("otherwise compares Origin with the host, and lets requests without either through", () => {
    expect(isCrossSite(request("POST", { origin: "http://lab.example:8080" }))).toBe(false);
    expect(isCrossSite(request("PUT", { origin: "http://lab.example:9090" }))).toBe(true);
    expect(isCrossSite(request("POST", { origin: "null" }))).toBe(true);
    expect(isCrossSite(request("POST", {}))).toBe(false);
  });
});
