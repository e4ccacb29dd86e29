// The linear/log choice of a chart, as radio buttons in a fieldset (the feature explorer's and the IPT plot's).
export type Scale = "linear" | "log";

export function ScaleChoice(props: { name: string; value: Scale; onChange(value: Scale): void; className?: string }) {
  return (
    <fieldset className={props.className}>
      <legend>Scale</legend>
      {(["linear", "log"] as const).map((value) => (
        <label key={value}>
          <input
            type="radio"
            name={props.name}
            value={value}
            checked={props.value === value}
            onChange={() => props.onChange(value)}
          />{" "}
          {value === "linear" ? "Linear" : "Log"}
        </label>
      ))}
    </fieldset>
  );
}
