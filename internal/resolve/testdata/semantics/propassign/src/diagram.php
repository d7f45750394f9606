<?php
namespace App\Schema;

class Pdf
{
    public function showOutput() {}
}

class Dia
{
    public function showOutput() {}
}

abstract class ExportSchema
{
    /** @var Pdf|Dia */
    protected $diagram;
}

/**
 * A subclass's @property narrows the property it inherits.
 *
 * @property Dia $diagram
 */
class DiaSchema extends ExportSchema
{
    public function save()
    {
        $this->diagram->showOutput();
    }
}

class AnySchema extends ExportSchema
{
    public function save()
    {
        $this->diagram->showOutput();
    }
}
