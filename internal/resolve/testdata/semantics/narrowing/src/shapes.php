<?php
namespace Gen;

class FieldMeta {}

class Results
{
    /**
     * @psalm-var array{
     *   table: string,
     *   fields_meta: FieldMeta[],
     *   first?: FieldMeta|null,
     * }
     */
    private $props = [];

    /**
     * @param array{
     *   meta: FieldMeta,
     * } $row
     */
    public function show(array $row): void {}
}
