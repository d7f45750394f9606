<?php
namespace App\Cache;

class Manager
{
    protected $mutex;
    protected $store;
    protected $driver;
    protected $snapshot;
    protected $other;
    protected $cache;
    /** @var Store */
    protected $primary;
    protected static $instance;

    public function __construct(Store $store, public $logger, ?Mutex $shared = null)
    {
        $this->mutex = new Mutex();
        $this->store = $store;
        $this->snapshot = clone $shared;
        $this->primary = new FileDriver();
        $this->other = new Mutex();
    }

    public static function instance()
    {
        self::$instance = new static(new FileDriver(), null);
        return static::$instance->boot();
    }

    public function boot() {}

    public function useFiles()
    {
        $this->driver = new FileDriver();
    }

    public function useRedis()
    {
        $this->driver = new RedisDriver();
    }

    public function reset()
    {
        $this->mutex = null;
        $this->other = make_driver();
    }

    public function logger()
    {
        $this->logger = new Logger();
    }

    public function cache()
    {
        return $this->cache ??= new RedisDriver();
    }

    public function run()
    {
        $this->mutex->exists('a');
        $this->store->get('b');
        $this->driver->put('c', 1);
        $this->snapshot->exists('d');
        $this->other->exists('e');
        $this->logger->log('f');
        $this->cache()->put('g', 2);
        $this->cache->put('h', 3);
        $this->primary->get('i');
        call_user_func([$this->mutex, 'exists'], 'j');
    }
}

class Child extends Manager
{
    public function swap($store)
    {
        $this->store = $store;
    }
}
