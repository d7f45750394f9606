import os.path
import json as j
from .util import helper, other as o
from pkg.mod import Thing

class Greeter(Base, metaclass=Meta):
    """Greeter greets."""

    def greet(self, p):
        """say hello"""
        helper(p)
        self.log("x")
        return Thing(p)

def main():
    os.path.join("a")
    j.dumps({})
