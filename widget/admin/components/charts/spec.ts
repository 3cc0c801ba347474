/** What a chart shows (Chart.tsx): the hours, and each series with its style sheet colour. */
export interface ChartSeries {
  readonly label: string;
  /** One per x; null: no value (a rate of an hour without finished payments). */
  readonly values: readonly (number | null)[];
  /** A CSS variable of styles.css, such as `--accent`. */
  readonly colour: string;
}

export interface ChartSpec {
  readonly x: readonly number[];
  readonly series: readonly ChartSeries[];
  /** The y axis' labels. */
  readonly yTick?: (value: number) => string;
}
