/** The console's one table of records: a heading row, then one row a record, its first cell the row's header. */
import type { ComponentChildren } from 'preact';

/** One column of a {@link DataTable}: its heading and what a record shows in it. */
export interface Column<T> {
  /** The heading (`<th scope="col">`). */
  readonly title: ComponentChildren;
  /** The record's cell; in the first column, the row's header (`<th scope="row">`). */
  readonly cell: (row: T) => ComponentChildren;
}

/**
 * A `table.data` of records.
 * @param props - The records, their key, the columns, and the table's name: the id of a heading
 *   (`labelledBy`) or a caption only screen readers see (`caption`).
 */
export function DataTable<T>(props: {
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: readonly Column<T>[];
  labelledBy?: string;
  caption?: string;
}): preact.JSX.Element {
  const { columns } = props;
  return (
    <table class="data" aria-labelledby={props.labelledBy}>
      {props.caption === undefined ? null : <caption class="visually-hidden">{props.caption}</caption>}
      <thead>
        <tr>
          {columns.map((column, i) => (
            <th key={i} scope="col">
              {column.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr key={props.rowKey(row)}>
            {columns.map((column, i) =>
              i === 0 ? (
                <th key={i} scope="row">
                  {column.cell(row)}
                </th>
              ) : (
                <td key={i}>{column.cell(row)}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
