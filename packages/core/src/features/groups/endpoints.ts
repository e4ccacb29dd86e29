// protocol, ts, srcIP, srcPrt, dstIP, dstPrt: who talked, from the session record (forward side = source).
import type { FeatureGroup } from "../feature-group.js";

const scratch = new Uint8Array(16);
const NS = 1e9;

export const endpoints: FeatureGroup = {
  name: "endpoints",
  kind: "naming",
  columns: [
    { name: "protocol", type: "int" },
    { name: "ts", type: "time" },
    { name: "srcIP", type: "string" },
    { name: "srcPrt", type: "int" },
    { name: "dstIP", type: "string" },
    { name: "dstPrt", type: "int" },
  ],
  sideSlots: 0,
  flowSlots: 0,
  finish(_s, _fwd, _bwd, _flow, session, row) {
    row.int(session.protocol);
    const whole = Math.floor(session.firstTime / NS);
    row.epoch(session.baseSec + whole, session.firstTime - whole * NS);
    if (session.ipVersion === 4) {
      row.ipv4(session.ipv4(true));
      row.int(session.fwdPort);
      row.ipv4(session.ipv4(false));
    } else {
      row.address(session.address(true, scratch), 6);
      row.int(session.fwdPort);
      row.address(session.address(false, scratch), 6);
    }
    row.int(session.bwdPort);
  },
};
