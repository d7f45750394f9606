import { useLabel } from './label';

export function Button(props: Props) {
  return <button onClick={props.onClick}>{useLabel(props.id)}</button>;
}
