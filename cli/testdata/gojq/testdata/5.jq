import "6" as foo { test: "foo" };
def h: . * foo::i;
