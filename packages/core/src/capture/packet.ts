// A captured packet as every reader delivers it, whatever the file format.

/**
 * One packet record. Readers reuse the same object (and the memory behind `data`) for every packet:
 * a packet and its bytes are valid only until the reader is asked for the next packet or given more input.
 * Copy what must outlive that.
 */
export interface CapturedPacket {
  /** Whole seconds since the Unix epoch (may be negative for pre-1970 timestamps). */
  tsSec: number;
  /** Nanoseconds within the second, an integer 0..999 999 999: timestamps keep the file's full precision. */
  tsNsec: number;
  /** Bytes present in the file (`data.length`). */
  capturedLength: number;
  /** Length of the packet on the wire; larger than capturedLength when the capture truncated it (snaplen). */
  originalLength: number;
  /** LINKTYPE_* value of the packet's link layer (https://www.tcpdump.org/linktypes.html numbering). */
  linkType: number;
  /** Index of the capture interface (pcapng interface id across sections; 0 for pcap; ERF: the record's interface). */
  interfaceIndex: number;
  /** The captured bytes, starting at the link-layer header. */
  data: Uint8Array;
  /** Byte offset of this packet's record in the (decompressed) input, for error messages. */
  fileOffset: number;
  /** 0-based position of this packet in the input. */
  index: number;
}
