module {
  "name": "sample-module",
  "description": "This is a description",
  x: [
    [],
    {},
    { y: 10, z: 20 }
  ],
  y: {
    z: [128, "", false, true, null, [[]]]
  },
};

def f($x): $x * .;
