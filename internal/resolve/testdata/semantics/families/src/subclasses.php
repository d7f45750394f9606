<?php
namespace Ftp;

// a class that calls a method only its subclasses declare: the object is one
// of them, so their methods are the candidates (derived)
class Base
{
    public function put($f)
    {
        return $this->exec('PUT ' . $f); // Pure::exec or Sockets::exec
    }

    public function quit()
    {
        return $this->close(); // declared nowhere
    }
}

class Pure extends Base
{
    protected function exec($cmd) { return $cmd; }
}

class Sockets extends Base
{
    protected function exec($cmd) { return $cmd; }
}

class Deep extends Sockets
{
}
