export class DoOneRequest {
  name: string;
}
