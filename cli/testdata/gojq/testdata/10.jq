.foo,

[],

bar ]
